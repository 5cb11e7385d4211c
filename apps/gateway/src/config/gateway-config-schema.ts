import { z } from 'zod';
import {
  configSchemaParts,
  modelRouterConfigSchema,
  pricingSchema,
  providerConfigSchema,
} from 'nest-model-router/config';
import { DEMO_EMBEDDING } from './demo-embeddings.js';
import { authSchema, corsSchema, serverSchema, toolCallsSchema } from './gateway-sections.js';

const { unknownName, problemIssue } = configSchemaParts;

const isModelList = (value: unknown) =>
  Array.isArray(value) && value.every((model) => typeof model === 'string' && model.trim() !== '');

const MODELS =
  'must be a list of model ids or globs, or a mapping from model id (or glob) to { pricing }';

/**
 * The whole YAML file as the gateway reads it: the library's schema with the gateway's sections
 * added, checked in one pass with the library's wording. `ModelRouterConfig` stays the library's.
 */
export const gatewayConfigSchema = modelRouterConfigSchema
  .safeExtend({
    providers: z
      .record(
        z.string(),
        providerConfigSchema.safeExtend({
          /**
           * The model ids (or globs) the provider serves as `provider/model-id`: a list, or a
           * mapping from id (or glob) to its own settings (`pricing`, else the provider's).
           */
          models: z
            .union(
              [
                z.custom<string[]>(isModelList, { error: MODELS }),
                z.record(
                  z.string().trim().min(1),
                  z.strictObject({ pricing: pricingSchema.optional() }).nullable(),
                ),
              ],
              { error: MODELS },
            )
            .optional(),
        }),
      )
      .optional(),
    /** `none`: the operator chose to serve without keys on any address. */
    auth: z
      .union([z.literal('none'), authSchema], {
        error: "must be 'none' or a mapping with keys (and adminKeys)",
      })
      .optional(),
    cors: corsSchema.optional(),
    toolCalls: toolCallsSchema.optional(),
    server: serverSchema.optional(),
  })
  .superRefine(checkGatewaySections, { when: () => true });

export type GatewayFileConfig = z.output<typeof gatewayConfigSchema>;

/** What the shapes cannot say: one secret per key, unique names, scopes that name things. */
function checkGatewaySections(value: unknown, ctx: z.RefinementCtx): void {
  if (!isRecord(value) || !isRecord(value.auth)) return;
  const problems: string[] = [];
  const names = {
    routers: namesOf(value.routers),
    // a key's `models` scope holds for the embedding models too
    models: [...namesOf(value.models), DEMO_EMBEDDING],
    providers: namesOf(value.providers),
  };
  const { keys: givenKeys, adminKeys: givenAdmins } = value.auth;
  const keys = Array.isArray(givenKeys) ? givenKeys : [];
  const admins = Array.isArray(givenAdmins) ? givenAdmins : [];
  // a list that is not one is reported by the shape check
  const listed = (list: unknown) => list === undefined || Array.isArray(list);
  if (keys.length === 0 && admins.length === 0 && listed(givenKeys) && listed(givenAdmins)) {
    problems.push(
      'auth: list at least one key under keys (or write `auth: none` to serve without)',
    );
  }
  const seen = new Set<string>();
  const check = (key: unknown, path: string) => {
    if (!isRecord(key)) return;
    if ((key.key === undefined) === (key.sha256 === undefined)) {
      problems.push(`${path}: give exactly one of key (e.g. '\${TEAM_KEY}') or sha256`);
    }
    if (typeof key.name === 'string') {
      if (seen.has(key.name)) problems.push(`${path}.name: '${key.name}' is used twice`);
      seen.add(key.name);
    }
  };
  keys.forEach((key: unknown, index) => {
    const path = `auth.keys[${index}]`;
    check(key, path);
    if (isRecord(key)) checkScope(key, path, names, problems);
  });
  admins.forEach((key: unknown, index) => check(key, `auth.adminKeys[${index}]`));
  for (const problem of problems) ctx.addIssue(problemIssue(problem));
}

function checkScope(
  key: Record<string, unknown>,
  path: string,
  names: { routers: string[]; models: string[]; providers: string[] },
  problems: string[],
): void {
  const exact = (field: 'routers' | 'models', kind: string) => {
    const list = key[field];
    if (!Array.isArray(list)) return;
    list.forEach((name: unknown, index) => {
      if (typeof name === 'string' && !name.includes('*') && !names[field].includes(name)) {
        problems.push(`${path}.${field}[${index}]: ${unknownName(kind, name, names[field])}`);
      }
    });
  };
  exact('routers', 'router');
  exact('models', 'model');
  if (!Array.isArray(key.providerModels)) return; // true, false, or reported by the shape
  key.providerModels.forEach((pattern: unknown, index) => {
    if (typeof pattern !== 'string') return;
    const at = `${path}.providerModels[${index}]`;
    const slash = pattern.indexOf('/');
    if (slash <= 0 || slash === pattern.length - 1) {
      problems.push(`${at}: must be provider/model-id (globs allowed, e.g. openai/gpt-4o*)`);
    } else if (!names.providers.includes(pattern.slice(0, slash))) {
      problems.push(`${at}: ${unknownName('provider', pattern.slice(0, slash), names.providers)}`);
    }
  });
}

function namesOf(value: unknown): string[] {
  return isRecord(value) ? Object.keys(value) : [];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
