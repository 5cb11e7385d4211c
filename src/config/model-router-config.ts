import { z } from 'zod';
import { BALANCERS } from '../core/strategies/balancers/balancer.js';
import type { BudgetDefinition } from '../core/budget/budget.js';
import { UNPRICED_UNDER_BUDGET } from '../core/cost/model-profile.js';
import { decimal, flag, integer, oneOf, text } from './config-fields.js';
import { checkModelRouterConfig } from './check-model-router-config.js';
import { adaptiveOrDuration, duration, withDurationsInMs } from './duration-field.js';
import { cacheConfigSchema, routerCacheSchema } from './cache-config-schema.js';
import { resilienceConfigSchema } from './resilience-config-schema.js';

/**
 * The one schema of the YAML configuration: its TypeScript type (`ModelRouterConfig`), its check
 * and its wording (config-wording.ts). Shapes refuse unknown keys where the module reads every
 * key; the cross-references (a route names a declared model…) are a refinement of the whole.
 * An app with sections of its own extends it: `modelRouterConfigSchema.safeExtend({ … })`.
 */
export const GROUP_STRATEGIES = ['failover', 'lowest-token-usage'] as const;
export type GroupStrategy = (typeof GROUP_STRATEGIES)[number];

const failureWindowSchema = z.looseObject({
  durationMs: duration().optional(),
  /** A count window: the last `calls` calls instead of the last `durationMs`. */
  calls: integer(1).optional(),
  minimumRequests: integer(1).optional(),
});

/** The settings of a group's circuit breaker (GROUP_BREAKER_KEYS lists the same keys). */
const breakerShape = {
  cooldownMs: duration({ zero: true }).optional(),
  failureThreshold: integer(1).optional(),
  failureRateThreshold: decimal(0, 1).optional(),
  /** Opens on this share of slow calls in the window (a stream: slow to its first token). */
  slowCallRateThreshold: decimal(0, 1).optional(),
  /** What a slow call is: longer than this (a duration); default 10 s. */
  slowCallMs: duration().optional(),
  window: failureWindowSchema.optional(),
  halfOpenProbes: integer(1).optional(),
  cooldownMultiplier: decimal(1).optional(),
  maxCooldownMs: duration({ zero: true }).optional(),
  jitter: decimal(0, 1).optional(),
  probeTimeoutMs: duration().optional(),
  whenAllOpen: oneOf(['fail-fast', 'try-oldest']).optional(),
};

/**
 * A model group: the models it fails over between (or balances), the strategy and its circuit
 * breaker. `lowest-token-usage` balances among the models whose circuit is closed.
 */
const groupShape = {
  /** One model (still a group of one: it gets a circuit breaker and shows in health). */
  model: text().optional(),
  models: z.array(text()).optional(),
  strategy: oneOf(GROUP_STRATEGIES).optional(),
  /** How the group chooses among the models its circuits admit; default `ordered`. */
  balance: oneOf(BALANCERS).optional(),
  /**
   * Prompts sharing a prefix go to one model, so its prompt cache stays warm (weighted and
   * least-busy; on by default from 1,024 prompt tokens): `false`, or `{ minPromptTokens }`.
   */
  promptAffinity: z
    .union([flag(), z.strictObject({ minPromptTokens: integer(0).optional() })])
    .optional(),
  ...breakerShape,
  /** Rescue a stream that breaks mid-answer on the next model that can continue it. */
  continuation: flag().optional(),
  /**
   * How long (ms) a session (`x-model-router-session`) stays on the model that last answered it,
   * renewed by each answer; the ModelRouter's default is 30 minutes.
   */
  sessionTtlMs: duration().optional(),
  /**
   * Hedged requests: after `after` (a duration, or p90 / p95 / p99 of the group's own latency)
   * without a first token or answer, the same request also starts on the next model; the first
   * to produce wins. `maxExtra`: extra calls as a share of the group's calls (default 0.1).
   */
  hedge: z
    .strictObject({
      after: z.union([z.enum(['p90', 'p95', 'p99']), duration()]),
      maxExtra: decimal(0, 1)
        .refine((value) => value > 0, 'must be above 0')
        .optional(),
    })
    .optional(),
};

const groupSchema = z.strictObject(groupShape);

const routeSchema = z.strictObject({
  ...groupShape,
  name: text(),
  /** What the route is for; several descriptions become several options for the decision model. */
  description: z.custom<string | string[]>().optional(),
  /** Sample user messages; decision models learn from them. */
  examples: z.array(z.string()).optional(),
});

/** How a router picks a route; `type` names a decision model factory (embedded, llm, embedding). */
const decisionSchema = z.looseObject({
  type: text().optional(),
  /** An `embedding` decision model's bound on each call to its embeddings API. */
  timeoutMs: duration().optional(),
  minProbability: decimal(0, 1).optional(),
  fallback: oneOf(['default-route', 'fail']).optional(),
  maxMessages: integer(1).optional(),
  question: text().optional(),
  /** A second decision model (same shape) asked when the first is below `teachBelow`. */
  teacher: z.looseObject({ type: text().optional(), timeoutMs: duration().optional() }).optional(),
  teachBelow: decimal(0, 1).optional(),
  /** The most the teacher is asked, as a share of any 100 consecutive decisions (default 0.3). */
  maxTeacherShare: decimal(0, 1)
    .refine((value) => value > 0, 'must be above 0')
    .optional(),
  /** A JSON Lines file of labelled messages learned at start-up. */
  learned: text().optional(),
  /** Routes from the cheapest to the most capable (`quality: bad` feedback moves up). */
  capabilityOrder: z.array(text()).optional(),
});

/** A decision-routed router (`routes`) or a model group (`model` / `models`). */
const routerSchema = z.strictObject({
  ...groupShape,
  routes: z.array(routeSchema).optional(),
  decision: decisionSchema.optional(),
  defaultRoute: text().optional(),
  /** A calibrated share of calls per route, e.g. `{ complex: 0.3 }` (decision routers). */
  targetShare: z.record(z.string(), decimal(0, 1)).optional(),
  /** This router's response cache: `false` (off) or settings over the top-level `cache:`. */
  cache: routerCacheSchema.optional(),
});

/**
 * A model: `type` names a model factory (openai, anthropic, demo, or one you register); the
 * other fields are its settings, checked by its factory. `provider` inherits the settings of a
 * `providers` entry.
 */
const modelSchema = z.looseObject({
  type: text().optional(),
  provider: text().optional(),
  /** The SDK's bound on one request (openai, anthropic). */
  timeoutMs: duration().optional(),
  /** The demo model's pause between tokens. */
  tokenDelayMs: duration({ zero: true }).optional(),
  /** Retries and timeouts around the model (ResilienceOptions), or `false` for none. */
  resilience: resilienceConfigSchema.optional(),
  /**
   * How long a stream waits for its first token: `adaptive` (the resilience default: learnt
   * from the model's own times, see docs/resilience.md) or a fixed duration (`'90s'`).
   */
  firstTokenTimeout: adaptiveOrDuration().optional(),
  /** The same for the wait between chunks of a stream. */
  idleTimeout: adaptiveOrDuration().optional(),
  /**
   * How long a plain (non-streamed) answer may take: `adaptive` (the resilience default: learnt
   * from the model's own answers, scaled by their length, under `timeouts.attemptMs`) or a
   * fixed duration.
   */
  answerTimeout: adaptiveOrDuration().optional(),
  /**
   * A cap on the model's calls in flight: `max`, or `adaptive: true` (AIMD: grows on success,
   * shrinks on 429s and slow answers, up to `max`). A call over it goes to the next model of the
   * group, or waits up to `queueMs` (at most `queueSize` calls), or gets a 429.
   */
  concurrency: z
    .strictObject({
      max: integer(1).optional(),
      adaptive: flag().optional(),
      queueMs: duration().optional(),
      queueSize: integer(0).optional(),
    })
    .refine(
      (value) => value.max !== undefined || value.adaptive === true,
      'needs max, or adaptive: true',
    )
    .optional(),
});

/** USD per million tokens (ModelPricing). */
export const pricingSchema = z.strictObject({
  input: decimal(0),
  output: decimal(0),
  cachedInput: decimal(0).optional(),
  cacheWrite: decimal(0).optional(),
});

/**
 * An endpoint (OpenAI-compatible or Anthropic) that models share; keys stay out of logs.
 * `pricing`: the price of its models that have none of their own (its `provider/model-id`
 * models, and configured models that name it).
 */
export const providerConfigSchema = z.looseObject({
  type: text(),
  timeoutMs: duration().optional(),
  resilience: resilienceConfigSchema.optional(),
  pricing: pricingSchema.optional(),
});

export const modelRouterConfigSchema = z
  .strictObject(
    {
      providers: z.record(z.string(), providerConfigSchema).optional(),
      models: z.record(z.string(), modelSchema),
      routers: z.record(z.string(), routerSchema),
      defaultRouter: text().optional(),
      /**
       * `{ type: memory }` (default) or `{ type: redis, url, keyPrefix, … }`; checked by the state
       * store's own check, which options given in code go through too. Its `…Ms` settings take
       * durations (`commandTimeoutMs: 500ms`).
       */
      state: z.custom<Record<string, unknown>>().transform(withDurationsInMs).optional(),
      /**
       * The breaker of failover lists built per request (the gateway's `models: [...]`): the
       * breaker settings of a group (`cooldownMs`, `halfOpenProbes`…), same defaults.
       */
      failoverLists: z.strictObject(breakerShape).optional(),
      /**
       * Spend limits: `{ name, scope: { router?, route?, model?, key? }, limitUsd, period, … }`;
       * checked by the budgets' own check, which options given in code go through too.
       */
      budgets: z.custom<BudgetDefinition[]>().optional(),
      /**
       * A `provider/model-id` call with no price known (neither its provider nor the model has a
       * `pricing`) when a budget applies to it: `refuse` (default; 403 `model_unpriced`) or
       * `allow` (served, and charged nothing). Configured models keep their own profile.
       */
      unpricedUnderBudget: oneOf(UNPRICED_UNDER_BUDGET).optional(),
      /** The response cache: the default of every router (docs/cache.md). */
      cache: cacheConfigSchema.optional(),
    },
    {
      error: (issue) =>
        issue.code === 'invalid_type' ? 'must be a mapping with models and routers' : undefined,
    },
  )
  // runs on a file with shape problems too, so every problem is listed at once
  .superRefine(checkModelRouterConfig, { when: () => true });

/** The whole file, after `${ENV}` interpolation and validation. */
export type ModelRouterConfig = z.output<typeof modelRouterConfigSchema>;
export type RouterConfig = z.output<typeof routerSchema>;
export type RouteConfig = z.output<typeof routeSchema>;
export type GroupConfig = z.output<typeof groupSchema>;
export type DecisionConfig = z.output<typeof decisionSchema>;
export type ModelConfig = z.output<typeof modelSchema>;
export type ProviderConfig = z.output<typeof providerConfigSchema>;
export type FailureWindowConfig = z.output<typeof failureWindowSchema>;

/** A schema of the whole file: the library's, or one that extends it with an app's sections. */
export type ModelRouterConfigSchema = z.ZodType<ModelRouterConfig>;
