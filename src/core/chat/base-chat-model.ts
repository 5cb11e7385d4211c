import { raceAbort, throwIfAborted, type SettlesOnAbort } from './abort.js';
import type {
  ChatCallOptions,
  ChatModel,
  ChatModelListener,
  ChatModelListenerContext,
  ChatStreamEvent,
} from './chat-model.js';
import type { Capability } from './capability.js';
import { mergeParameters, type ChatRequest, type ChatRequestParameters } from './request.js';
import type { ChatResponse } from './response.js';
import { responseEvents } from './stream.js';

export interface BaseChatModelOptions {
  listeners?: ChatModelListener[];
  defaultRequestParameters?: ChatRequestParameters;
  capabilities?: Iterable<Capability>;
}

/**
 * What every provider shares: default parameters merged under the request's, listeners called with
 * the call's attributes, and the caller's AbortSignal honoured before, during and after the call.
 * Subclasses implement `doChat` and, when they can, `doStream`.
 */
export abstract class BaseChatModel implements ChatModel, SettlesOnAbort {
  /** `chat` races `doChat` on the caller's signal: the layers above race it no further. */
  readonly settlesOnAbort = true as const;
  protected readonly listeners: ChatModelListener[];
  private readonly defaults: ChatRequestParameters;
  private readonly capabilities: ReadonlySet<Capability>;

  protected constructor(options: BaseChatModelOptions = {}) {
    this.listeners = [...(options.listeners ?? [])];
    this.defaults = { ...options.defaultRequestParameters };
    this.capabilities = new Set(options.capabilities ?? []);
  }

  protected abstract doChat(request: ChatRequest, options: ChatCallOptions): Promise<ChatResponse>;

  /** Override to stream natively; the default serves `doChat` as one delta plus `complete`. */
  protected async *doStream(
    request: ChatRequest,
    options: ChatCallOptions,
  ): AsyncGenerator<ChatStreamEvent> {
    yield* responseEvents(await this.doChat(request, options));
  }

  supportedCapabilities(): ReadonlySet<Capability> {
    return this.capabilities;
  }

  defaultRequestParameters(): ChatRequestParameters {
    return { ...this.defaults };
  }

  addListener(listener: ChatModelListener): void {
    this.listeners.push(listener);
  }

  /**
   * Rejects with the signal's reason as soon as `options.signal` aborts, whatever `doChat` does
   * (ResilientChatModel relies on it and races no further): an override must keep that.
   */
  async chat(request: ChatRequest, options: ChatCallOptions = {}): Promise<ChatResponse> {
    throwIfAborted(options.signal);
    const effective = this.withDefaults(request);
    const attributes = { ...options.attributes };
    this.notify('onRequest', { request: effective, attributes });
    try {
      const response = await raceAbort(this.doChat(effective, options), options.signal);
      this.notify('onResponse', { request: effective, response, attributes });
      return response;
    } catch (error) {
      this.notify('onError', { request: effective, error, attributes });
      throw error;
    }
  }

  async *stream(
    request: ChatRequest,
    options: ChatCallOptions = {},
  ): AsyncGenerator<ChatStreamEvent> {
    throwIfAborted(options.signal);
    const effective = this.withDefaults(request);
    const attributes = { ...options.attributes };
    this.notify('onRequest', { request: effective, attributes });
    try {
      for await (const event of this.doStream(effective, options)) {
        throwIfAborted(options.signal);
        if (event.type === 'complete') {
          this.notify('onResponse', { request: effective, response: event.response, attributes });
        }
        yield event;
      }
    } catch (error) {
      this.notify('onError', { request: effective, error, attributes });
      throw error;
    }
  }

  protected withDefaults(request: ChatRequest): ChatRequest {
    if (Object.keys(this.defaults).length === 0) return request;
    return { ...request, parameters: mergeParameters(this.defaults, request.parameters) };
  }

  /** A listener's failure must never change the call's outcome. */
  private notify(hook: keyof ChatModelListener, context: ChatModelListenerContext): void {
    for (const listener of this.listeners) {
      try {
        listener[hook]?.(context);
      } catch {
        // deliberately ignored: listeners observe, they do not steer
      }
    }
  }
}
