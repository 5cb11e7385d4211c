import type {
  ChatCallOptions,
  ChatModel,
  ChatStreamEvent,
} from '../../../../src/core/chat/chat-model.js';
import type { ChatRequest } from '../../../../src/core/chat/request.js';
import type { ChatResponse } from '../../../../src/core/chat/response.js';
import type {
  InspectableRouting,
  ModelStatus,
  RouteStateBinding,
} from '../../../../src/core/inspection/inspection.js';
import type { RoutingEvent } from '../../../../src/core/observability/routing-event.js';

export interface RecordedCall {
  request: ChatRequest;
  options: ChatCallOptions;
}

export function response(text: string, fields: Partial<ChatResponse> = {}): ChatResponse {
  return { aiMessage: { role: 'assistant', text }, ...fields };
}

/** A plain ChatModel that answers with its name and records what it was given. */
export class FakeModel implements ChatModel {
  readonly calls: RecordedCall[] = [];

  constructor(
    readonly name: string,
    private readonly answer: (request: ChatRequest) => Promise<ChatResponse> = async () =>
      response(`answer from ${name}`, { modelName: name }),
  ) {}

  chat(request: ChatRequest, options: ChatCallOptions = {}): Promise<ChatResponse> {
    this.calls.push({ request, options });
    return this.answer(request);
  }
}

/**
 * Stands in for a RoutingChatModel: reports the routing events it is given to the call's
 * observer, answers with a response carrying the route attribute, and is inspectable.
 */
export class FakeRouter implements ChatModel, InspectableRouting {
  readonly calls: RecordedCall[] = [];
  readonly bindings: RouteStateBinding[] = [];
  statuses: ModelStatus[] = [];
  events: RoutingEvent[] = [];
  route = 'simple';
  model = 'model-a';
  streamEvents: ChatStreamEvent[] | undefined;
  failWith: unknown;
  private readonly listeners = new Set<(event: RoutingEvent) => void>();

  constructor(readonly name = 'router') {}

  async chat(request: ChatRequest, options: ChatCallOptions = {}): Promise<ChatResponse> {
    this.calls.push({ request, options });
    for (const event of this.events) options.observer?.(event);
    if (this.failWith !== undefined) throw this.failWith;
    return response(`${this.route}/${this.model}`, {
      modelName: this.model,
      aiMessage: {
        role: 'assistant',
        text: `${this.route}/${this.model}`,
        attributes: { chat_model_route: this.route },
      },
    });
  }

  inspectModels(): ModelStatus[] {
    return this.statuses;
  }

  bindRouteState(binding: RouteStateBinding): void {
    this.bindings.push(binding);
  }

  onEvent(listener: (event: RoutingEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** An event noticed outside a call (e.g. by inspectModels). */
  emitOutsideCall(event: RoutingEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  get listenerCount(): number {
    return this.listeners.size;
  }
}

/** A model whose stream yields deltas until its signal aborts; records the signal. */
export class EndlessStreamModel implements ChatModel {
  signal: AbortSignal | undefined;
  finished = false;
  yielded = 0;

  chat(): Promise<ChatResponse> {
    return Promise.reject(new Error('EndlessStreamModel only streams'));
  }

  async *stream(
    _request: ChatRequest,
    options: ChatCallOptions = {},
  ): AsyncGenerator<ChatStreamEvent> {
    this.signal = options.signal;
    try {
      for (;;) {
        if (options.signal?.aborted) throw options.signal.reason;
        await new Promise<void>((resolve, reject) => {
          const onAbort = () => {
            clearTimeout(timer);
            reject(options.signal?.reason);
          };
          const timer = setTimeout(() => {
            options.signal?.removeEventListener('abort', onAbort);
            resolve();
          }, 1);
          options.signal?.addEventListener('abort', onAbort, { once: true });
        });
        this.yielded++;
        yield { type: 'text-delta', text: 'x' };
      }
    } finally {
      this.finished = true;
    }
  }
}
