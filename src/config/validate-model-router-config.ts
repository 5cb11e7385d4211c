import type { z } from 'zod';
import { configIssueMessage, configProblems } from './config-wording.js';
import { InvalidModelRouterConfigException } from './invalid-model-router-config.exception.js';
import { modelRouterConfigSchema, type ModelRouterConfigSchema } from './model-router-config.js';

/**
 * Validates a parsed (and interpolated) configuration against the library's schema, or one that
 * extends it with an app's sections: shapes, then every cross-reference, in one pass. Throws one
 * InvalidModelRouterConfigException listing every problem by path.
 */
export function validateModelRouterConfig<S extends ModelRouterConfigSchema>(
  raw: unknown,
  source?: string,
  schema: S = modelRouterConfigSchema as unknown as S,
): z.output<S> {
  const result = schema.safeParse(raw, { error: configIssueMessage });
  if (result.success) return result.data;
  throw new InvalidModelRouterConfigException(configProblems(result.error.issues), source);
}
