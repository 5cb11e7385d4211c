/**
 * Jest-only: @nestjs/throttler ships CommonJS that `require`s @nestjs/common, which NestJS 12
 * ships as ES modules only. Node (≥ 20.19) loads that natively (`require(esm)`), so the gateway
 * imports the package as is; Jest's module runtime supports it only from Node 24.9. Until then
 * jest.config.js maps `@nestjs/throttler` here: the package's own files, evaluated with a
 * `require` that hands them the very @nestjs/common and @nestjs/core instances the test uses
 * (a second copy would break Nest's dependency injection, which matches classes by identity).
 */
import * as common from '@nestjs/common';
import * as core from '@nestjs/core';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const nodeRequire = createRequire(import.meta.url);
// the package.json, not the package: the package itself is mapped to this file
const manifest = nodeRequire.resolve('@nestjs/throttler/package.json');
const entry = join(dirname(manifest), (nodeRequire(manifest) as { main: string }).main);
const shared: Record<string, unknown> = { '@nestjs/common': common, '@nestjs/core': core };
const loaded = new Map<string, { exports: unknown }>();

function load(file: string): unknown {
  const cached = loaded.get(file);
  if (cached) return cached.exports;
  const module = { exports: {} as unknown };
  loaded.set(file, module);
  const source = readFileSync(file, 'utf8');
  const local = (id: string): unknown => {
    if (id in shared) return shared[id];
    if (id.startsWith('.')) return load(`${join(dirname(file), id)}.js`);
    return nodeRequire(id);
  };
  // oxlint-disable-next-line no-new-func -- evaluating the package's own CommonJS files
  const run = new Function('exports', 'require', 'module', '__filename', '__dirname', source);
  run(module.exports, local, module, file, dirname(file));
  return module.exports;
}

type Throttler = typeof import('@nestjs/throttler');
const throttler = load(entry) as Throttler;

// what the gateway uses at run time (types come from the package itself)
export const ThrottlerGuard: Throttler['ThrottlerGuard'] = throttler.ThrottlerGuard;
export const ThrottlerModule: Throttler['ThrottlerModule'] = throttler.ThrottlerModule;
export const ThrottlerException: Throttler['ThrottlerException'] = throttler.ThrottlerException;
export const ThrottlerStorageService: Throttler['ThrottlerStorageService'] =
  throttler.ThrottlerStorageService;
export const getStorageToken: Throttler['getStorageToken'] = throttler.getStorageToken;
export const getOptionsToken: Throttler['getOptionsToken'] = throttler.getOptionsToken;
