import { readFileSync } from 'node:fs';
import { load } from 'js-yaml';
import {
  DEFAULT_MODEL_ROUTER_CONFIG_PATH,
  MODEL_ROUTER_CONFIG_ENV,
} from './load-model-router-config.js';

/**
 * The router and model names of a configuration file, read while the module graph is declared
 * (before any factory runs), for `forRootAsync({ routerNames, modelNames })`. Nothing is
 * validated here; a broken file yields no names and fails properly when the factory loads it.
 */
export function readModelRouterConfigNames(
  path: string = process.env[MODEL_ROUTER_CONFIG_ENV] ?? DEFAULT_MODEL_ROUTER_CONFIG_PATH,
): { routerNames: string[]; modelNames: string[] } {
  let parsed: unknown;
  try {
    parsed = load(readFileSync(path, 'utf8'));
  } catch {
    return { routerNames: [], modelNames: [] };
  }
  const record = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Record<
    string,
    unknown
  >;
  return { routerNames: keysOf(record.routers), modelNames: keysOf(record.models) };
}

function keysOf(value: unknown): string[] {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? Object.keys(value)
    : [];
}
