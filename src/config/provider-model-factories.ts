import { AnthropicChatModel } from '../providers/anthropic/anthropic-chat-model.js';
import {
  LocalDemoChatModel,
  type LocalDemoChatModelOptions,
} from '../providers/local/local-demo-chat-model.js';
import { OpenAiCompatibleChatModel } from '../providers/openai/openai-compatible-chat-model.js';
import type { ChatModel } from '../core/chat/chat-model.js';
import { InvalidConfigurationException } from '../core/errors/exceptions.js';
import { plainWordKeyProblem } from '../providers/shared/plain-word-key.js';
import type { ChatRequestParameters } from '../core/chat/request.js';
import {
  type ModelFactory,
  type ModelRouterFactories,
  pickSettings,
} from './model-router-factories.js';

const COMMON = [
  'model',
  'baseURL',
  'apiKey',
  'headers',
  'timeoutMs',
  'maxRetries',
  'providerName',
  'parameters',
  'malformedChunks',
  'allowModelOverride',
];
const OPENAI_SETTINGS = [
  ...COMMON,
  'logprobs',
  'topLogprobs',
  'assistantPrefill',
  'maxTokensParameter',
  'strictJsonSchema',
  'streamUsage',
  'extraBody',
  'promptCacheKey',
];
const ANTHROPIC_SETTINGS = [...COMMON, 'maxTokens', 'structuredOutputs', 'cacheSystemPrompt'];
const DEMO_SETTINGS = ['name', 'style', 'failEvery', 'tokenDelayMs', 'parameters'];

/**
 * `openai` (any OpenAI-compatible server) and `anthropic` on the official SDKs, wrapped in the
 * default resilience (retries, timeouts) unless the model says `resilience: false`; `demo`: the
 * built-in offline model (the demo app may register its own `demo` instead).
 */
export function registerProviderModelTypes(factories: ModelRouterFactories): ModelRouterFactories {
  return factories
    .registerModelType(
      'openai',
      sdkModelFactory(OpenAiCompatibleChatModel, OPENAI_SETTINGS, 'an openai model'),
      { resilientByDefault: true },
    )
    .registerModelType(
      'anthropic',
      sdkModelFactory(AnthropicChatModel, ANTHROPIC_SETTINGS, 'an anthropic model'),
      { resilientByDefault: true },
    )
    .registerModelType('demo', demoModelFactory());
}

/**
 * A provider on its official SDK: the YAML's `timeoutMs` and `parameters` become the model's
 * `timeout` and `defaultRequestParameters`; the app's clock reads `Retry-After` dates.
 */
function sdkModelFactory<Options extends object>(
  Model: new (options: Options) => ChatModel,
  allowed: string[],
  what: string,
): ModelFactory {
  return (settings, context) => {
    const { timeoutMs, parameters, ...options } = pickSettings(settings, allowed, what);
    // the YAML provider's own name (`provider: ollama`) is no key either
    const { apiKey } = options as { apiKey?: unknown };
    const problem =
      typeof apiKey === 'string' ? plainWordKeyProblem(apiKey, [context.provider]) : undefined;
    if (problem !== undefined) throw new InvalidConfigurationException(`apiKey ${problem}`);
    return new Model({
      ...(options as unknown as Options),
      ...(timeoutMs !== undefined ? { timeout: timeoutMs as number } : {}),
      ...(parameters !== undefined
        ? { defaultRequestParameters: parameters as ChatRequestParameters }
        : {}),
      ...(context.clock ? { clock: context.clock } : {}),
    });
  };
}

/**
 * The `demo` type: the built-in offline model. `extra` adds options no YAML can carry, e.g. the
 * gateway's `identity`, which tells the model the route probability of the call it answers.
 */
export function demoModelFactory(extra: Partial<LocalDemoChatModelOptions> = {}): ModelFactory {
  return (settings, context) => {
    const { name, parameters, ...options } = pickSettings(settings, DEMO_SETTINGS, 'a demo model');
    return new LocalDemoChatModel({
      ...(options as Omit<LocalDemoChatModelOptions, 'name'>),
      ...extra,
      name: typeof name === 'string' ? name : context.name,
      ...(parameters !== undefined
        ? { defaultRequestParameters: parameters as ChatRequestParameters }
        : {}),
    });
  };
}
