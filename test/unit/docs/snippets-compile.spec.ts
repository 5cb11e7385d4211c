// Every TypeScript snippet of the README and of docs/ is a file: written out to build/snippets-tsc/
// and type-checked in one tsc run, with the README's own tsconfig flags and the package's entries
// mapped to src/ (as an app that installed the package sees them).
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import * as prettier from 'prettier';
import {
  codeBlocks,
  EXERCISED_BY,
  isTypeScript,
  markdownPages,
  repoRoot,
  typeCheckRoot,
  writeSnippets,
} from './support/markdown.js';

/** The README's tsconfig.json, the one its app is built with. */
function readmeCompilerOptions(): Record<string, unknown> {
  const block = codeBlocks('README.md').find((b) => b.file === 'tsconfig.json');
  if (!block) throw new Error('README.md has no `// file: tsconfig.json` block');
  const json = block.code.replace(/^\s*\/\/.*$/gm, '');
  return (JSON.parse(json) as { compilerOptions: Record<string, unknown> }).compilerOptions;
}

describe('the snippets of README.md and docs/', () => {
  it('name the file they are, on their first line', () => {
    const unnamed = markdownPages().flatMap((page) =>
      codeBlocks(page)
        .filter((block) => isTypeScript(block) && block.file === undefined)
        .map((block) => `${page}:${block.line}`),
    );
    expect(unnamed).toEqual([]);
  });

  it('are each run or loaded by a spec of test/unit/docs, TypeScript and YAML alike', () => {
    const files = markdownPages().flatMap((page) =>
      codeBlocks(page)
        .filter((block) => isTypeScript(block) || ['yaml', 'yml', 'jsonc'].includes(block.lang))
        .map(
          (block) => `${page} ${block.file ?? `(unnamed ${block.lang} block, line ${block.line})`}`,
        ),
    );
    expect(files.toSorted()).toEqual(Object.keys(EXERCISED_BY).toSorted());
  });

  it('are formatted as the project formats its code', async () => {
    const options = {
      ...(await prettier.resolveConfig(join(repoRoot, 'src/index.ts'))),
      parser: 'typescript',
    };
    const unformatted: string[] = [];
    for (const page of markdownPages())
      for (const block of codeBlocks(page).filter(isTypeScript))
        if ((await prettier.format(block.code, options)) !== block.code)
          unformatted.push(`${page}:${block.line}`);
    expect(unformatted).toEqual([]);
  });

  it('type-check together under the README tsconfig, in one tsc run', () => {
    rmSync(typeCheckRoot, { recursive: true, force: true });
    const files = markdownPages().flatMap((page) => writeSnippets(page, typeCheckRoot));
    expect(files.filter((file) => file.endsWith('.ts')).length).toBeGreaterThanOrEqual(4);
    const { rootDir: _rootDir, outDir: _outDir, ...flags } = readmeCompilerOptions();
    const tsconfig = {
      compilerOptions: {
        ...flags,
        noEmit: true,
        paths: {
          'nest-model-router': ['../../src/index.ts'],
          'nest-model-router/metrics': ['../../src/metrics.ts'],
          'nest-model-router/microservices': ['../../src/microservices.ts'],
          'nest-model-router/*': ['../../src/*/index.ts'],
        },
      },
      include: ['./**/*.ts'],
    };
    writeFileSync(join(typeCheckRoot, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
    const tsc = spawnSync(
      process.execPath,
      [
        join(repoRoot, 'node_modules/typescript/bin/tsc'),
        '-p',
        join(typeCheckRoot, 'tsconfig.json'),
      ],
      { encoding: 'utf8' },
    );
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  });
});
