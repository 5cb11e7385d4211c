import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Counter, Gauge, Histogram } from 'prom-client';
import { InvalidConfigurationException } from '../../../../src/core/errors/exceptions.js';
import { loadPromClient } from '../../../../src/nest/metrics/load-prom-client.js';

const SRC = join(process.cwd(), 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

describe('prom-client, an optional peer dependency', () => {
  it('is loaded by the metrics module only, and tells how to install it when missing', async () => {
    const attempt = loadPromClient(() =>
      Promise.reject(
        Object.assign(new Error("Cannot find package 'prom-client'"), {
          code: 'ERR_MODULE_NOT_FOUND',
        }),
      ),
    );
    await expect(attempt).rejects.toThrow(InvalidConfigurationException);
    await expect(loadPromClient(() => Promise.reject(new Error('not found')))).rejects.toThrow(
      'install it with `npm install prom-client@^15`',
    );
  });

  it('accepts the API on the module or on its default export, and refuses anything else', async () => {
    const api = { Counter, Gauge, Histogram };
    await expect(loadPromClient(async () => api)).resolves.toBe(api);
    await expect(loadPromClient(async () => ({ default: api }))).resolves.toBe(api);
    await expect(loadPromClient(async () => ({ default: {} }))).rejects.toThrow(
      'does not export Counter, Gauge and Histogram',
    );
  });

  it('is imported at run time by load-prom-client.ts alone, which the package root never reaches', () => {
    const runtimeImport =
      /(^|\n)\s*import\s+(?!type\b)[^;]*from\s+'prom-client'|import\('prom-client'\)/;
    const importing = sourceFiles(SRC)
      .filter((file) => runtimeImport.test(readFileSync(file, 'utf8')))
      .map((file) => relative(SRC, file));
    expect(importing).toEqual(['nest/metrics/load-prom-client.ts']);

    const reachesMetrics = /from\s+'\.\/(nest\/metrics\/|metrics\.js)/;
    const root = readFileSync(join(SRC, 'index.ts'), 'utf8');
    expect(reachesMetrics.test(root)).toBe(false);
    // and nothing outside the metrics folder (and its subpath entry) imports the metrics folder
    const outside = sourceFiles(SRC)
      .filter(
        (file) =>
          !file.includes(join('nest', 'metrics')) && !file.endsWith(join('src', 'metrics.ts')),
      )
      .filter((file) => /from\s+'\.{1,2}\/[^']*\bmetrics\/[^']*'/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(SRC, file));
    expect(outside).toEqual([]);
  });
});
