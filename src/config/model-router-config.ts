import 'reflect-metadata';
import { Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { ToBoolean, ToNumber } from './config-transforms.js';
import { BALANCERS, type BalancerName } from '../core/strategies/balancers/balancer.js';
import type { BudgetDefinition } from '../core/budget/budget.js';

export const GROUP_STRATEGIES = ['failover', 'lowest-token-usage'] as const;
export type GroupStrategy = (typeof GROUP_STRATEGIES)[number];

export class FailureWindowConfig {
  @IsOptional()
  @ToNumber()
  @IsInt()
  @Min(1)
  durationMs?: number;

  @IsOptional()
  @ToNumber()
  @IsInt()
  @Min(1)
  minimumRequests?: number;
}

/**
 * A model group: the models it fails over between (or balances), the strategy and its circuit
 * breaker. `lowest-token-usage` balances among the models whose circuit is closed.
 */
export class GroupConfig {
  /** One model (still a group of one: it gets a circuit breaker and shows in health). */
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  model?: string;

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  models?: string[];

  @IsOptional()
  @IsIn(GROUP_STRATEGIES)
  strategy?: GroupStrategy;

  /** How the group chooses among the models its circuits admit; default `ordered`. */
  @IsOptional()
  @IsIn(BALANCERS)
  balance?: BalancerName;

  @IsOptional()
  @ToNumber()
  @IsInt()
  @Min(0)
  cooldownMs?: number;

  @IsOptional()
  @ToNumber()
  @IsInt()
  @Min(1)
  failureThreshold?: number;

  @IsOptional()
  @ToNumber()
  @IsNumber()
  @Min(0)
  @Max(1)
  failureRateThreshold?: number;

  @IsOptional()
  @ValidateNested()
  @Type(() => FailureWindowConfig)
  window?: FailureWindowConfig;

  @IsOptional()
  @ToNumber()
  @IsInt()
  @Min(1)
  halfOpenProbes?: number;

  @IsOptional()
  @ToNumber()
  @IsNumber()
  @Min(1)
  cooldownMultiplier?: number;

  @IsOptional()
  @ToNumber()
  @IsInt()
  @Min(0)
  maxCooldownMs?: number;

  @IsOptional()
  @ToNumber()
  @IsNumber()
  @Min(0)
  @Max(1)
  jitter?: number;

  @IsOptional()
  @ToNumber()
  @IsInt()
  @Min(1)
  probeTimeoutMs?: number;

  @IsOptional()
  @IsIn(['fail-fast', 'try-oldest'])
  whenAllOpen?: 'fail-fast' | 'try-oldest';

  /** Rescue a stream that breaks mid-answer on the next model that can continue it. */
  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  continuation?: boolean;

  /**
   * How long (ms) a session (`x-model-router-session`) stays on the model that last answered it,
   * renewed by each answer; the ModelRouter's default is 30 minutes.
   */
  @IsOptional()
  @ToNumber()
  @IsInt()
  @Min(1)
  sessionTtlMs?: number;
}

export class RouteConfig extends GroupConfig {
  @IsString()
  @IsNotEmpty()
  name!: string;

  /** What the route is for; several descriptions become several options for the decision model. */
  @IsOptional()
  description?: string | string[];

  /** Sample user messages; decision models learn from them. */
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  examples?: string[];
}

/** How a router picks a route; `type` names a decision model factory (embedded, llm, embedding). */
export class DecisionConfig {
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  type?: string;

  @IsOptional()
  @ToNumber()
  @IsNumber()
  @Min(0)
  @Max(1)
  minProbability?: number;

  @IsOptional()
  @IsIn(['default-route', 'fail'])
  fallback?: 'default-route' | 'fail';

  @IsOptional()
  @ToNumber()
  @IsInt()
  @Min(1)
  maxMessages?: number;

  @IsOptional()
  @IsString()
  @IsNotEmpty()
  question?: string;

  /** Further settings of the decision model type (its model, temperature, baseURL…). */
  [setting: string]: unknown;
}

/** A decision-routed router (`routes`) or a model group (`model` / `models`). */
export class RouterConfig extends GroupConfig {
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => RouteConfig)
  routes?: RouteConfig[];

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => DecisionConfig)
  decision?: DecisionConfig;

  @IsOptional()
  @IsString()
  @IsNotEmpty()
  defaultRoute?: string;
}

/**
 * A model: `type` names a model factory (openai, anthropic, demo, or one you register); the
 * other fields are its settings. `provider` inherits the settings of a `providers` entry.
 */
export class ModelConfig {
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  type?: string;

  @IsOptional()
  @IsString()
  @IsNotEmpty()
  provider?: string;

  /** Retries and timeouts around the model (ResilienceOptions), or `false` for none. */
  @IsOptional()
  resilience?: Record<string, unknown> | false;

  [setting: string]: unknown;
}

/** An endpoint (OpenAI-compatible or Anthropic) that models share; keys stay out of logs. */
export class ProviderConfig {
  @IsString()
  @IsNotEmpty()
  type!: string;

  [setting: string]: unknown;
}

/** The whole file, after `${ENV}` interpolation and validation. */
export class ModelRouterConfig {
  @IsOptional()
  @IsObject()
  providers?: Record<string, ProviderConfig>;

  @IsObject()
  models!: Record<string, ModelConfig>;

  @IsObject()
  routers!: Record<string, RouterConfig>;

  @IsOptional()
  @IsString()
  @IsNotEmpty()
  defaultRouter?: string;

  /** Spend limits: `{ name, scope: { router?, route?, model?, key? }, limitUsd, period, warnAt? }`. */
  @IsOptional()
  @IsArray()
  budgets?: BudgetDefinition[];

  /** `{ type: memory }` (default) or `{ type: redis, url, keyPrefix, … }`. */
  @IsOptional()
  @IsObject()
  state?: Record<string, unknown>;

  /**
   * The breaker of failover lists built per request (the gateway's `models: [...]`): the breaker
   * settings of a group (`cooldownMs`, `halfOpenProbes`, `maxCooldownMs`…), same defaults.
   */
  @IsOptional()
  @IsObject()
  failoverLists?: GroupConfig;
}
