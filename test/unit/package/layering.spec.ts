import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const PACKAGE = 'nest-model-router';

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Every module a file imports: relative ones as repository paths (`.ts`), bare ones as given. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const statics = text.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s*['"]([^'"]+)['"]/gm);
  const sideEffects = text.matchAll(/^import\s*['"]([^'"]+)['"]/gm);
  const dynamics = text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g);
  return [...statics, ...sideEffects, ...dynamics]
    .map((match) => match[1]!)
    .map((specifier) =>
      specifier.startsWith('.')
        ? relative(ROOT, resolve(dirname(file), specifier)).replace(/\.js$/, '.ts')
        : specifier,
    );
}

/** Which npm packages a row allows: node builtins only (and the ones named by `only`), any, or any but some. */
type Packages = { any: false; only?: string[] } | { any: true; except: string[] };

interface Rule {
  /** A folder or a file of the repository. */
  path: string;
  /** Folders, files and package entries it may import besides itself. */
  imports: string[];
  packages: Packages;
}

const backticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);

/** The table of docs/architecture.md, from the bottom layer up. */
function architectureTable(): Rule[] {
  const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
  const section = doc.split(/^## /m).find((part) => part.startsWith('Folders and what each'));
  if (!section) throw new Error('docs/architecture.md has no "Folders and what each" section');
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const cells = line.split('|').slice(1, -1);
      if (cells.length !== 4) throw new Error(`a row needs 4 cells: ${line}`);
      const [folder, , mayImport, packages] = cells as [string, string, string, string];
      const path = backticked(folder)[0]!;
      const imports = backticked(mayImport).map((name) =>
        name.startsWith(PACKAGE) || name.includes('/') || !path.startsWith('src/core/')
          ? name
          : `src/core/${name}`,
      );
      const allowed: Packages = packages.trim().startsWith('any')
        ? { any: true, except: backticked(packages) }
        : /^(only|node builtins and)\b/.test(packages.trim())
          ? { any: false, only: backticked(packages) }
          : { any: false };
      if (!allowed.any && !allowed.only && packages.trim() !== 'node builtins') {
        throw new Error(
          `Packages of ${path} must be "node builtins", "node builtins and …", "only …", "any" or "any but …"`,
        );
      }
      return { path, imports, packages: allowed };
    });
}

const within = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

/** The row that governs a file: the most specific folder or file that contains it. */
function ruleOf(rules: readonly Rule[], file: string): Rule | undefined {
  return rules
    .filter((rule) => within(file, rule.path))
    .reduce<Rule | undefined>(
      (best, rule) => (!best || rule.path.length > best.path.length ? rule : best),
      undefined,
    );
}

function packageAllowed(specifier: string, packages: Packages): boolean {
  if (specifier.startsWith('node:')) return true;
  if (!packages.any) return packages.only?.some((name) => within(specifier, name)) ?? false;
  return !packages.except.some((pattern) =>
    pattern.endsWith('/*')
      ? specifier.startsWith(pattern.slice(0, -1))
      : within(specifier, pattern),
  );
}

function entryAllowed(specifier: string, rule: Rule): boolean {
  return rule.imports.some((name) =>
    name.endsWith('/*') ? specifier.startsWith(name.slice(0, -1)) : specifier === name,
  );
}

const rules = architectureTable();
const sources = [
  ...filesUnder(join(ROOT, 'src')),
  ...filesUnder(join(ROOT, 'apps/gateway/src')),
].map((file) => relative(ROOT, file));

describe('what each folder may import (the table of docs/architecture.md)', () => {
  it('has a row for every part of src and the gateway, each naming a folder or file that exists', () => {
    expect(rules.length).toBeGreaterThan(20);
    for (const rule of rules) expect(statSync(join(ROOT, rule.path))).toBeTruthy();
    expect(sources.filter((file) => !ruleOf(rules, file))).toEqual([]);
  });

  it('is one way: a row names only rows above it', () => {
    const upward = rules.flatMap((rule, index) =>
      rule.imports
        .filter((name) => !name.startsWith(PACKAGE))
        .flatMap((name) => {
          const named = rules.filter((other) => other !== rule && within(other.path, name));
          if (named.length === 0) return [`${rule.path} names ${name}, which has no row`];
          return named
            .filter((other) => rules.indexOf(other) > index)
            .map((other) => `${rule.path} → ${other.path}, a row below it`);
        }),
    );
    expect(upward).toEqual([]);
  });

  it.each(rules.map((rule) => [rule.path, rule] as const))(
    '%s imports only what its row names',
    (_path, rule) => {
      const violations = sources
        .filter((file) => ruleOf(rules, file) === rule)
        .flatMap((file) =>
          importsOf(file)
            .filter((target) => {
              if (target.startsWith(PACKAGE)) return !entryAllowed(target, rule);
              if (!target.startsWith('src/') && !target.startsWith('apps/')) {
                return !packageAllowed(target, rule.packages);
              }
              return (
                ruleOf(rules, target) !== rule && !rule.imports.some((name) => within(target, name))
              );
            })
            .map((target) => `${file} → ${target}`),
        );
      expect(violations).toEqual([]);
    },
  );

  it('the demo gateway uses the package by its public entries only', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      exports: Record<string, unknown>;
    };
    const entries = Object.keys(pkg.exports).map((key) => key.replace(/^\./, 'nest-model-router'));
    const internal = filesUnder(join(ROOT, 'apps/gateway/src')).flatMap((file) =>
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
    const starred = filesUnder(join(ROOT, 'src')).filter((file) =>
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
        './embedded',
        './providers',
        './redis',
        './testing',
        './metrics',
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

  it('the embedded model ships its assets: the published files include the folder it reads', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] };
    expect(pkg.files).toContain('src/embedded/assets');
    expect(statSync(join(ROOT, 'src/embedded/assets')).isDirectory()).toBe(true);
  });
});
