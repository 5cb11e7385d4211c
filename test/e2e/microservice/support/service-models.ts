import { finalize } from 'rxjs';
import type {
  ChatCallOptions,
  ChatModel,
  ChatStreamEvent,
} from '../../../../src/core/chat/chat-model.js';
import { userMessageText } from '../../../../src/core/chat/messages.js';
import type { ChatRequest } from '../../../../src/core/chat/request.js';
import type { ChatResponse } from '../../../../src/core/chat/response.js';
import { ProviderException } from '../../../../src/core/errors/provider-exception.js';
import { ModelTimeoutException } from '../../../../src/core/errors/timeout-exception.js';
import { ChatModelRoutingResult } from '../../../../src/core/routing/chat-model-routing-result.js';
import { RoutingChatModel } from '../../../../src/core/routing/routing-chat-model.js';
import { FailoverStrategy } from '../../../../src/core/strategies/failover-strategy.js';
import { ModelRouter } from '../../../../src/core/group/model-router.js';
import type { ChatInterceptor } from '../../../../src/nest/interceptors/chat-interceptor.js';
import type { ModelRouterModuleOptions } from '../../../../src/nest/module/model-router-module-options.js';

/** What the service's models and interceptor saw, for the tests to read. */
export class ServiceProbe {
  /** Calls of the `main` router's routing function (a tool loop's next rounds skip it). */
  routerCalls = 0;
  /** Abort reasons the hanging model received, in order. */
  readonly aborts: unknown[] = [];
  /** Calls the hanging model has started. */
  hangingCalls = 0;
  /** Every call the chat interceptor chain saw, when it ended. */
  readonly calls: {
    mode: string;
    router?: string;
    route?: string;
    model?: string;
    attributes: Record<string, unknown>;
  }[] = [];
  /** Virtual epoch ms: the breakers' clock. */
  now = 1_700_000_000_000;
  readonly clock = () => this.now;

  reset(): void {
    this.routerCalls = 0;
    this.hangingCalls = 0;
    this.aborts.length = 0;
    this.calls.length = 0;
  }
}

function lastUserText(request: ChatRequest): string {
  for (let index = request.messages.length - 1; index >= 0; index--) {
    const message = request.messages[index]!;
    if (message.role === 'user') return userMessageText(message);
  }
  return '';
}

/** Echoes the last user message; `count N` streams N numbered deltas. */
export const echoModel: ChatModel = {
  async chat(request) {
    return {
      aiMessage: { role: 'assistant', text: `echo: ${lastUserText(request)}` },
      modelName: 'fast-v1',
      tokenUsage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 },
      finishReason: 'stop',
    };
  },
  async *stream(request) {
    const text = lastUserText(request);
    const count = /^count (\d+)$/.exec(text)?.[1];
    const parts =
      count === undefined
        ? [`echo: ${text}`]
        : Array.from({ length: Number(count) }, (_, index) => `${index} `);
    for (const part of parts) yield { type: 'text-delta', text: part };
    yield {
      type: 'complete',
      response: {
        aiMessage: { role: 'assistant', text: parts.join('') },
        modelName: 'fast-v1',
        finishReason: 'stop',
      },
    };
  },
};

/** Asks for the `lookup` tool until the conversation holds two tool results, then answers. */
export const toolModel: ChatModel = {
  async chat(request) {
    const results = request.messages.filter((message) => message.role === 'tool').length;
    if (results < 2) {
      return {
        aiMessage: {
          role: 'assistant',
          toolCalls: [
            { id: `call-${results + 1}`, name: 'lookup', arguments: `{"round":${results + 1}}` },
          ],
        },
        modelName: 'big-v1',
        finishReason: 'tool_calls',
      };
    }
    return {
      aiMessage: { role: 'assistant', text: `done after ${results} tools` },
      modelName: 'big-v1',
    };
  },
};

/** Never answers on its own: waits for its signal, and records the reason. */
export function hangingModel(probe: ServiceProbe): ChatModel {
  const untilAborted = (options: ChatCallOptions | undefined) =>
    new Promise<never>((_, reject) => {
      probe.hangingCalls++;
      const signal = options?.signal;
      if (!signal) return;
      signal.addEventListener(
        'abort',
        () => {
          probe.aborts.push(signal.reason);
          reject(signal.reason);
        },
        { once: true },
      );
    });
  return {
    chat: (_request, options) => untilAborted(options),
    async *stream(_request, options): AsyncGenerator<ChatStreamEvent> {
      yield { type: 'text-delta', text: 'thinking… ' };
      await untilAborted(options);
    },
  };
}

const failing = (error: () => Error): ChatModel => ({
  chat: () => Promise.reject(error()),
});

export const rateLimited = () =>
  new ProviderException('openai answered 429: Rate limit reached for gpt-x', {
    kind: 'rate-limited',
    provider: 'openai',
    model: 'gpt-x',
    status: 429,
    code: 'rate_limit_exceeded',
    retryAfterMs: 1_500,
  });

export const firstTokenTimeout = () => new ModelTimeoutException('first-token', 250, 'gpt-slow');

export const LEAKED_KEY = 'sk-live-0123456789abcdef';

/**
 * Routers: `main` (routes simple → echo, complex → tools; the router picks `complex` when the
 * user says so), one router per error class, `hanging` (waits for its abort), plus `extra`.
 */
export function serviceOptions(
  probe: ServiceProbe,
  extra: Record<string, ChatModel> = {},
): ModelRouterModuleOptions {
  const group = (name: string, model: ChatModel) =>
    new ModelRouter({
      routes: [{ name, model }],
      routingStrategy: new FailoverStrategy({ cooldownMs: 60_000, clock: probe.clock }),
    });
  const main = new RoutingChatModel({
    routes: [
      { name: 'simple', description: 'small talk', model: group('fast', echoModel) },
      { name: 'complex', description: 'tools', model: group('big', toolModel) },
    ],
    router: (request) => {
      probe.routerCalls++;
      const last = request.chatRequest.messages.at(-1);
      const text = last?.role === 'user' ? userMessageText(last) : '';
      return ChatModelRoutingResult.route(text.includes('complex') ? 'complex' : 'simple');
    },
    defaultRoute: 'simple',
  });
  const exhausted = new ModelRouter({
    routes: [
      {
        name: 'primary',
        model: failing(
          () =>
            new ProviderException('openai answered 503', {
              kind: 'transient',
              provider: 'openai',
              status: 503,
            }),
        ),
      },
      { name: 'secondary', model: failing(firstTokenTimeout) },
    ],
    routingStrategy: new FailoverStrategy({ cooldownMs: 60_000, clock: probe.clock }),
  });
  const misrouted = new RoutingChatModel({
    routes: [{ name: 'simple', model: echoModel }],
    router: () => ChatModelRoutingResult.route('medium'),
    defaultRoute: 'simple',
  });
  const recorder: ChatInterceptor = {
    intercept: (context, next) =>
      next.handle().pipe(
        finalize(() =>
          probe.calls.push({
            mode: context.mode,
            ...(context.routerName !== undefined ? { router: context.routerName } : {}),
            ...(context.route !== undefined ? { route: context.route } : {}),
            ...(context.model !== undefined ? { model: context.model } : {}),
            attributes: { ...context.attributes },
          }),
        ),
      ),
  };
  return {
    routers: {
      main,
      exhausted,
      limited: failing(rateLimited),
      slow: failing(firstTokenTimeout),
      misrouted,
      leaky: failing(
        () =>
          new Error(
            `upstream said: invalid api_key=${LEAKED_KEY} (https://admin:hunter2@llm.internal)`,
          ),
      ),
      hanging: hangingModel(probe),
      ...extra,
    },
    models: { echo: echoModel },
    defaultRouter: 'main',
    interceptors: [recorder],
    clock: probe.clock,
  };
}

export type { ChatResponse };
