import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Every module a file imports: relative ones resolved to repository paths, bare ones as given. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const statics = text.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s*['"]([^'"]+)['"]/gm);
  const dynamics = text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g);
  const specifiers = [...statics, ...dynamics].map((match) => match[1]!);
  return specifiers.map((specifier) =>
    specifier.startsWith('.') ? relative(ROOT, resolve(dirname(file), specifier)) : specifier,
  );
}

const folder = (name: string) => filesUnder(join(ROOT, name));

describe('what each folder may import (docs/architecture.md)', () => {
  it('src/core imports only src/core and node builtins: it runs without Nest, rxjs or class-validator', () => {
    const outside = folder('src/core').flatMap((file) =>
      importsOf(file)
        .filter((target) => !target.startsWith('src/core/') && !target.startsWith('node:'))
        .map((target) => `${relative(ROOT, file)} → ${target}`),
    );
    expect(outside).toEqual([]);
  });

  it('providers, redis and config never import the Nest layer or the gateway', () => {
    const upward = ['src/providers', 'src/redis', 'src/config'].flatMap((name) =>
      folder(name).flatMap((file) =>
        importsOf(file)
          .filter((target) => target.startsWith('src/nest/') || target.startsWith('apps/'))
          .map((target) => `${relative(ROOT, file)} → ${target}`),
      ),
    );
    expect(upward).toEqual([]);
  });

  it('the demo gateway uses the package by its public entries only', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      exports: Record<string, unknown>;
    };
    const entries = Object.keys(pkg.exports).map((key) => key.replace(/^\./, 'nest-model-router'));
    const internal = folder('apps/gateway/src').flatMap((file) =>
      importsOf(file)
        .filter(
          (target) =>
            target.startsWith('src/') ||
            (target.startsWith('nest-model-router') && !entries.includes(target)),
        )
        .map((target) => `${relative(ROOT, file)} → ${target}`),
    );
    expect(internal).toEqual([]);
  });

  it('every entry exports by name: no `export *` anywhere in src', () => {
    const starred = folder('src').filter((file) =>
      /^export\s*\*/m.test(readFileSync(file, 'utf8')),
    );
    expect(starred.map((file) => relative(ROOT, file))).toEqual([]);
  });

  it('the published files leave the gateway out, and every subpath entry has its source', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      files: string[];
      exports: Record<string, string | { types: string; default: string }>;
    };
    expect(pkg.files.some((entry) => entry.startsWith('apps'))).toBe(false);
    const entries = Object.entries(pkg.exports).filter(([key]) => key !== './package.json');
    expect(entries.map(([key]) => key)).toEqual(
      expect.arrayContaining([
        '.',
        './core',
        './providers',
        './config',
        './redis',
        './testing',
        './metrics',
        './microservices',
      ]),
    );
    for (const [, target] of entries) {
      const built = typeof target === 'string' ? target : target.default;
      const source = built.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts');
      expect(statSync(join(ROOT, source)).isFile()).toBe(true);
    }
  });
});
