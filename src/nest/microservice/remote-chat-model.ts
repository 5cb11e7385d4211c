import { randomUUID } from 'node:crypto';
import type { ChatCallOptions, ChatModel, ChatStreamEvent } from '../../core/chat/chat-model.js';
import type { ChatRequest } from '../../core/chat/request.js';
import type { ChatResponse } from '../../core/chat/response.js';
import { InvalidConfigurationException } from '../../core/errors/exceptions.js';
import { InvalidChatRequestException } from '../../core/errors/invalid-chat-request.exception.js';
import { IncompleteStreamException } from '../../core/resilience/incomplete-stream-exception.js';
import { MAX_TIMER_MS } from '../../core/resilience/retry-policy.js';
import type { HealthReport } from '../health/health-report.js';
import type { ModelRouterClient } from './model-router-client.js';
import {
  MODEL_ROUTER_PATTERNS,
  type RemoteChatPayload,
  type RemoteModelsReply,
} from './model-router-patterns.js';
import { RemoteCall } from './remote-call.js';
import { RemoteModelRouterException } from './remote-model-router.exception.js';
import { keepRemoteServed, restoreRemoteServed } from './remote-served.js';
import {
  routeAttribute,
  modelAttribute,
  routerAttribute,
} from '../../core/chat/call-attributes.js';

/** A routed call can take minutes (long answers, failovers); this only bounds a silent service. */
export const DEFAULT_REMOTE_TIMEOUT_MS = 120_000;

export interface RemoteChatModelOptions {
  /** The service's router for every call; default: the service's `defaultRouter`. */
  router?: string;
  /**
   * `chat()`: the bound on the whole call; `stream()`: on each wait for the next event. Then
   * ModelTimeoutException, and CANCEL is sent. Default 120 000 ms; `null`: no bound (a service
   * that is down on a broker transport — Redis, NATS — is then waited for forever).
   */
  timeoutMs?: number | null;
}

/** The usual call options, and this call's router and session. */
export interface RemoteChatCallOptions extends ChatCallOptions {
  router?: string;
  /** The conversation's session key: it stays on the model that last answered it. */
  session?: string;
}

/** Attributes that describe the local call, not the remote one. */
const LOCAL_ATTRIBUTES = [routeAttribute.name, routerAttribute.name, modelAttribute.name];

/**
 * A ChatModel served by a model router service (ModelRouterMicroserviceModule) over any
 * `@nestjs/microservices` transport: `new RemoteChatModel(client, { router?, timeoutMs? })`,
 * `client` a ClientProxy (or anything with its `send`). Calls behave as if the router ran
 * here: the response names the router, route and model that served it, errors are rebuilt as
 * the library's classes, a tool loop returns to its route, and the caller's abort (or leaving a
 * stream early) cancels the provider call on the service. It can be a member of a local group.
 */
export class RemoteChatModel implements ChatModel {
  private readonly router: string | undefined;
  private readonly timeoutMs: number | undefined;

  constructor(
    private readonly client: ModelRouterClient,
    options: RemoteChatModelOptions = {},
  ) {
    if (typeof (client as { send?: unknown } | null)?.send !== 'function') {
      throw new InvalidConfigurationException(
        'RemoteChatModel needs a client with send(pattern, data), e.g. a ClientProxy from ClientsModule or ClientProxyFactory.create(...)',
      );
    }
    this.router = checkRouter(options.router, 'RemoteChatModel option router');
    const timeoutMs =
      options.timeoutMs === undefined ? DEFAULT_REMOTE_TIMEOUT_MS : options.timeoutMs;
    if (
      timeoutMs !== null &&
      (typeof timeoutMs !== 'number' ||
        !Number.isFinite(timeoutMs) ||
        timeoutMs <= 0 ||
        timeoutMs > MAX_TIMER_MS)
    ) {
      throw new InvalidConfigurationException(
        `RemoteChatModel option timeoutMs must be a number of milliseconds above 0 and at most ${MAX_TIMER_MS}, or null for no bound (got ${String(timeoutMs)})`,
      );
    }
    this.timeoutMs = timeoutMs ?? undefined;
  }

  async chat(request: ChatRequest, options: RemoteChatCallOptions = {}): Promise<ChatResponse> {
    const call = this.open<ChatResponse>(MODEL_ROUTER_PATTERNS.CHAT, request, options, 'deadline');
    try {
      const reply = await call.next();
      if (reply.done) {
        throw new RemoteModelRouterException(
          `The model router service ended ${MODEL_ROUTER_PATTERNS.CHAT} without a response`,
          { kind: 'transient' },
        );
      }
      return keepRemoteServed(checkResponse(reply.value));
    } finally {
      call.close();
    }
  }

  /** Nothing is sent until iteration starts; leaving the loop early cancels the call there. */
  async *stream(
    request: ChatRequest,
    options: RemoteChatCallOptions = {},
  ): AsyncGenerator<ChatStreamEvent> {
    const call = this.open<ChatStreamEvent>(MODEL_ROUTER_PATTERNS.STREAM, request, options, 'idle');
    let completed = false;
    try {
      for (;;) {
        const reply = await call.next();
        if (reply.done) break;
        const event = checkEvent(reply.value);
        if (event.type === 'complete') {
          completed = true;
          yield { ...event, response: keepRemoteServed(checkResponse(event.response)) };
        } else {
          yield event;
        }
      }
    } finally {
      call.close();
    }
    if (!completed)
      throw new IncompleteStreamException(`model router service (${this.target(options)})`);
  }

  /** The routers and models the service has, and its default router. */
  async models(): Promise<RemoteModelsReply> {
    return this.ask<RemoteModelsReply>(MODEL_ROUTER_PATTERNS.MODELS);
  }

  /** The service's health report (as ModelRouterHealthIndicator's details). */
  async health(): Promise<HealthReport> {
    return this.ask<HealthReport>(MODEL_ROUTER_PATTERNS.HEALTH);
  }

  private async ask<T>(pattern: string): Promise<T> {
    const call = new RemoteCall<T>({
      client: this.client,
      pattern,
      callId: randomUUID(),
      payload: {},
      target: 'the service',
      ...(this.timeoutMs !== undefined ? { timeoutMs: this.timeoutMs } : {}),
      timeoutPhase: 'deadline',
    }).start();
    try {
      const reply = await call.next();
      if (reply.done) {
        throw new RemoteModelRouterException(
          `The model router service ended ${pattern} without a reply`,
          {
            kind: 'transient',
          },
        );
      }
      return reply.value;
    } finally {
      // a query is not a call the service registered: nothing to cancel
      call.close();
    }
  }

  private open<T>(
    pattern: string,
    request: ChatRequest,
    options: RemoteChatCallOptions,
    timeoutPhase: 'deadline' | 'idle',
  ): RemoteCall<T> {
    const callId = randomUUID();
    const router = checkRouter(options.router, 'router') ?? this.router;
    const attributes = remoteAttributes(options.attributes);
    const payload: RemoteChatPayload = {
      callId,
      request: restoreRemoteServed(request),
      ...(router !== undefined ? { router } : {}),
      ...(attributes !== undefined ? { attributes } : {}),
      ...(options.session !== undefined ? { session: options.session } : {}),
    };
    return new RemoteCall<T>({
      client: this.client,
      pattern,
      callId,
      payload,
      target: this.target(options),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(this.timeoutMs !== undefined ? { timeoutMs: this.timeoutMs } : {}),
      timeoutPhase,
    }).start();
  }

  private target(options: RemoteChatCallOptions): string {
    const router = options.router ?? this.router;
    return router !== undefined ? `router '${router}'` : 'the default router';
  }
}

function checkRouter(router: unknown, field: string): string | undefined {
  if (router === undefined) return undefined;
  if (typeof router !== 'string' || router.trim() === '') {
    throw new InvalidConfigurationException(`RemoteChatModel: ${field} must be a non-blank string`);
  }
  return router;
}

/** The caller's attributes minus those of the local call, as JSON (what a transport can carry). */
function remoteAttributes(
  attributes: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  if (attributes === undefined) return undefined;
  const remote: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(attributes)) {
    if (!LOCAL_ATTRIBUTES.includes(key)) remote[key] = value;
  }
  if (Object.keys(remote).length === 0) return undefined;
  try {
    return JSON.parse(JSON.stringify(remote)) as Record<string, unknown>;
  } catch (error) {
    throw new InvalidChatRequestException(
      `RemoteChatModel: call attributes must be JSON values to cross the transport (${(error as Error).message})`,
    );
  }
}

function checkResponse(response: unknown): ChatResponse {
  const aiMessage = (response as { aiMessage?: unknown } | null | undefined)?.aiMessage;
  if (typeof aiMessage !== 'object' || aiMessage === null) {
    throw new RemoteModelRouterException(
      'The model router service answered without an aiMessage: is it a ModelRouterMicroserviceModule of this library?',
      { kind: 'unknown' },
    );
  }
  return response as ChatResponse;
}

function checkEvent(event: unknown): ChatStreamEvent {
  if (typeof (event as { type?: unknown } | null | undefined)?.type !== 'string') {
    throw new RemoteModelRouterException(
      'The model router service streamed something that is not a ChatStreamEvent',
      { kind: 'unknown' },
    );
  }
  return event as ChatStreamEvent;
}
