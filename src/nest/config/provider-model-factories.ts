import { AnthropicChatModel } from '../../providers/anthropic/anthropic-chat-model.js';
import {
  LocalDemoChatModel,
  type LocalDemoChatModelOptions,
} from '../../providers/local/local-demo-chat-model.js';
import { OpenAiCompatibleChatModel } from '../../providers/openai/openai-compatible-chat-model.js';
import type { ChatRequestParameters } from '../../core/chat/request.js';
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
];
const ANTHROPIC_SETTINGS = [...COMMON, 'maxTokens', 'structuredOutputs'];
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
      (settings, context) => {
        const { timeoutMs, parameters, ...options } = pickSettings(
          settings,
          OPENAI_SETTINGS,
          'an openai model',
        );
        return new OpenAiCompatibleChatModel({
          ...(options as unknown as ConstructorParameters<typeof OpenAiCompatibleChatModel>[0]),
          ...(timeoutMs !== undefined ? { timeout: timeoutMs as number } : {}),
          ...(parameters !== undefined
            ? { defaultRequestParameters: parameters as ChatRequestParameters }
            : {}),
          ...(context.clock ? { clock: context.clock } : {}),
        });
      },
      { resilientByDefault: true },
    )
    .registerModelType(
      'anthropic',
      (settings, context) => {
        const { timeoutMs, parameters, ...options } = pickSettings(
          settings,
          ANTHROPIC_SETTINGS,
          'an anthropic model',
        );
        return new AnthropicChatModel({
          ...(options as unknown as ConstructorParameters<typeof AnthropicChatModel>[0]),
          ...(timeoutMs !== undefined ? { timeout: timeoutMs as number } : {}),
          ...(parameters !== undefined
            ? { defaultRequestParameters: parameters as ChatRequestParameters }
            : {}),
          ...(context.clock ? { clock: context.clock } : {}),
        });
      },
      { resilientByDefault: true },
    )
    .registerModelType('demo', demoModelFactory());
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
