import { readFileSync } from 'node:fs';
import { load } from 'js-yaml';
import type { z } from 'zod';
import { InvalidModelRouterConfigException } from './invalid-model-router-config.exception.js';
import { interpolateEnv } from './interpolate-env.js';
import { modelRouterConfigSchema, type ModelRouterConfigSchema } from './model-router-config.js';
import { validateModelRouterConfig } from './validate-model-router-config.js';

/** Where the configuration is read from unless told otherwise. */
export const DEFAULT_MODEL_ROUTER_CONFIG_PATH = 'config/model-router.yaml';
/** Environment variable naming another configuration file. */
export const MODEL_ROUTER_CONFIG_ENV = 'MODEL_ROUTER_CONFIG';

export interface LoadModelRouterConfigOptions<
  S extends ModelRouterConfigSchema = typeof modelRouterConfigSchema,
> {
  /** Default: `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * The schema of the whole file: default the library's; an app with sections of its own passes
   * one that extends it (`modelRouterConfigSchema.safeExtend({ auth: … })`), so the file is
   * validated once, with one wording.
   */
  schema?: S;
}

/** Reads a YAML file, interpolates `${ENV}` references and validates the result. */
export function loadModelRouterConfig<
  S extends ModelRouterConfigSchema = typeof modelRouterConfigSchema,
>(
  path: string = process.env[MODEL_ROUTER_CONFIG_ENV] ?? DEFAULT_MODEL_ROUTER_CONFIG_PATH,
  options: LoadModelRouterConfigOptions<S> = {},
): z.output<S> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new InvalidModelRouterConfigException(
      [
        `(file): cannot read ${path} (${reason}); set ${MODEL_ROUTER_CONFIG_ENV} to the configuration file`,
      ],
      path,
    );
  }
  return parseModelRouterConfig(text, { ...options, source: path });
}

/** Parses YAML text (or takes an already parsed object), interpolates and validates it. */
export function parseModelRouterConfig<
  S extends ModelRouterConfigSchema = typeof modelRouterConfigSchema,
>(
  input: string | Record<string, unknown>,
  options: LoadModelRouterConfigOptions<S> & { source?: string } = {},
): z.output<S> {
  let raw: unknown = input;
  if (typeof input === 'string') {
    try {
      raw = load(input);
    } catch (error) {
      // the first line names the problem and its position; the rest echoes file content
      const reason = (error as Error).message.split('\n')[0];
      throw new InvalidModelRouterConfigException([`(yaml): ${reason}`], options.source);
    }
  }
  const problems: string[] = [];
  const interpolated = interpolateEnv(raw, options.env ?? process.env, problems);
  if (problems.length > 0) throw new InvalidModelRouterConfigException(problems, options.source);
  return validateModelRouterConfig(interpolated, options.source, options.schema);
}
