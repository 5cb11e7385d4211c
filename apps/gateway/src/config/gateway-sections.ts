import { z } from 'zod';
import { configSchemaParts } from 'nest-model-router/config';
import { BUDGET_PERIODS, type BudgetPeriod } from 'nest-model-router/core';

/**
 * The gateway's own sections of the YAML file (`auth`, `cors`, `toolCalls`, `server`), in the library's
 * schema style: gateway-config-schema.ts adds them to the library's schema, so the whole file is
 * checked once, with one wording.
 */
const { integer, positive, text, oneOf } = configSchemaParts;

const keyBudgetSchema = z.strictObject({
  limitUsd: positive(),
  /** The periods of the library's `budgets:`: a key's budget becomes one, scoped `{ key }`. */
  period: oneOf(Object.keys(BUDGET_PERIODS) as [BudgetPeriod, ...BudgetPeriod[]]),
  /** A router or model the key's calls go to once the budget is spent, instead of a 429. */
  fallback: text().optional(),
});

/** A key's secret: the key itself (from `${ENV}`), or its SHA-256 so the file holds no secret. */
const secretShape = {
  name: text().regex(/^[A-Za-z0-9_.-]+$/, {
    error: 'must be letters, digits, _ . - (it appears in logs)',
  }),
  // short keys can be guessed; 16 characters is the floor of OpenAI's and LiteLLM's formats
  key: z
    .string()
    .min(16, { error: 'must be at least 16 characters long (e.g. `openssl rand -hex 24`)' })
    .optional(),
  sha256: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, { error: 'must be 64 hex digits (`sha256sum` of the key)' })
    .optional(),
};

const keySecretSchema = z.strictObject(secretShape);

/**
 * A client key. `routers`, `models` (configured models) and `providerModels`
 * (`provider/model-id`) are lists of names or globs (`*`); `routers`/`models` absent: all of
 * them; `providerModels` absent: none, `true`: every one its provider allows.
 */
const apiKeySchema = z.strictObject({
  ...secretShape,
  routers: z.array(text()).optional(),
  models: z.array(text()).optional(),
  providerModels: z
    .union([z.boolean(), z.array(z.string())], {
      error: 'must be true, false or a list of provider/model globs',
    })
    .optional(),
  rpm: integer(1).optional(),
  tpm: integer(1).optional(),
  budget: keyBudgetSchema.optional(),
});

export const authSchema = z.strictObject({
  keys: z.array(apiKeySchema).optional(),
  adminKeys: z.array(keySecretSchema).optional(),
});

export const corsSchema = z.strictObject({
  origins: z
    .array(
      z.string().regex(/^(\*|https?:\/\/[^/\s]+)$/, {
        error: "must be '*' or scheme://host[:port], e.g. https://app.example.com",
      }),
    )
    .min(1),
});

export const toolCallsSchema = z.strictObject({
  /** Signs tool call ids; the same on every replica, so a tool round may land on any of them. */
  secret: z.string().optional(),
});

/** The HTTP server's own bounds. */
export const serverSchema = z.strictObject({
  /** Connections open at once; beyond it requests are answered 503 (default 4,096). */
  maxConnections: integer(1).optional(),
});

export type KeyBudgetConfig = z.output<typeof keyBudgetSchema>;
export type KeySecretConfig = z.output<typeof keySecretSchema>;
export type ApiKeyConfig = z.output<typeof apiKeySchema>;
export type AuthConfig = z.output<typeof authSchema>;
export type CorsConfig = z.output<typeof corsSchema>;
export type ToolCallsConfig = z.output<typeof toolCallsSchema>;
export type ServerConfig = z.output<typeof serverSchema>;
