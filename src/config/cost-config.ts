import type { ChatModel } from '../core/chat/chat-model.js';
import { MODEL_PROFILE, validateProfile, type ModelProfile } from '../core/cost/model-profile.js';
import { validateBudgets } from '../core/budget/budget.js';
import type { BalancerName } from '../core/strategies/balancers/balancer.js';
import { createBalancer } from '../core/strategies/balancers/create-balancer.js';
import type { PromptAffinitySetting } from '../core/strategies/balancers/prompt-affinity.js';
import { InvalidConfigurationException } from '../core/errors/exceptions.js';
import type { ModelRoutingStrategy } from '../core/strategies/model-routing-strategy.js';
import { joinPath } from './invalid-model-router-config.exception.js';

/** The settings of a model that describe it to the router, not to its provider's factory. */
export const MODEL_PROFILE_KEYS = [
  'pricing',
  'contextWindow',
  'maxOutputTokens',
  'limits',
  'weight',
  'unpricedUnderBudget',
] as const;

/** The profile settings of a model's configuration, and the rest (for its factory). */
export function splitProfile(settings: Record<string, unknown>): {
  profile: ModelProfile | undefined;
  rest: Record<string, unknown>;
} {
  const rest: Record<string, unknown> = {};
  const profile: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(settings)) {
    if ((MODEL_PROFILE_KEYS as readonly string[]).includes(key)) profile[key] = value;
    else rest[key] = value;
  }
  return { profile: Object.keys(profile).length > 0 ? (profile as ModelProfile) : undefined, rest };
}

/** Problems of a model's profile settings, by path (`models.mini.pricing.input: …`). */
export function checkModelProfile(
  name: string,
  settings: Record<string, unknown>,
  problems: string[],
): void {
  const { profile } = splitProfile(settings);
  if (!profile) return;
  try {
    validateProfile(profile, joinPath('models', name));
  } catch (error) {
    if (!(error instanceof InvalidConfigurationException)) throw error;
    problems.push(error.message.replace(/^([\w.[\]]+):? (must|a model)/, '$1: $2'));
  }
}

const profiles = new WeakMap<ChatModel, ModelProfile>();

/** Remembers the profile of a built model, so every group that lists it carries it. */
export function rememberProfile(model: ChatModel, profile: ModelProfile | undefined): void {
  if (profile) profiles.set(model, profile);
}

/** The wrapper metadata of a configured model in a group: its profile, when it has one. */
export function profileMetadata(model: ChatModel): [string, unknown][] {
  const profile = profiles.get(model);
  return profile ? [[MODEL_PROFILE, profile]] : [];
}

export function configuredProfile(model: ChatModel): ModelProfile | undefined {
  return profiles.get(model);
}

/** Problems of a group's `balance` / `strategy` pair. */
export function checkBalance(
  group: { balance?: unknown; strategy?: unknown },
  path: string,
  problems: string[],
): void {
  // an unknown name is reported by the shape check
  if (group.balance === undefined) return;
  if (group.strategy === 'lowest-token-usage' && group.balance !== 'lowest-token-usage') {
    problems.push(
      `${path}: strategy: lowest-token-usage and balance: ${String(group.balance)} disagree; keep one (balance replaces strategy)`,
    );
  }
}

/**
 * The balancer a configured group chooses with, inside its FailoverStrategy: `balance`, else
 * the older `strategy: lowest-token-usage`; undefined for `ordered` (the failover order itself).
 */
export function groupBalancer(group: {
  balance?: BalancerName;
  strategy?: string;
  promptAffinity?: PromptAffinitySetting;
}): ModelRoutingStrategy | undefined {
  const name: BalancerName | undefined =
    group.balance ?? (group.strategy === 'lowest-token-usage' ? 'lowest-token-usage' : undefined);
  if (name === undefined || name === 'ordered') return undefined;
  const affinity = group.promptAffinity;
  return createBalancer(name, affinity === undefined ? {} : { promptAffinity: affinity });
}

/** Problems of the top-level `budgets` list. */
export function checkBudgets(budgets: unknown, problems: string[]): void {
  try {
    validateBudgets(budgets, 'budgets');
  } catch (error) {
    if (!(error instanceof InvalidConfigurationException)) throw error;
    problems.push(
      error.message.replace(/^(budgets[\w.[\]]*)(:| must)/, (_, at: string, sep: string) =>
        sep === ':' ? `${at}:` : `${at}: must`,
      ),
    );
  }
}
