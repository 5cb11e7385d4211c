import type { Capability } from './capability.js';
import type { ChatRequest, ChatRequestParameters } from './request.js';
import type { ChatResponse, TokenUsage } from './response.js';
import type { ToolCall } from './messages.js';
import type { RoutingObserver } from '../observability/routing-event.js';

export interface ChatCallOptions {
  signal?: AbortSignal;
  attributes?: Record<string, unknown>;
  /**
   * Receives routing events (route selected, model failed, cooldowns…) from every component the
   * call passes through. Set by the Nest module; components forward it unchanged to what they call.
   */
  observer?: RoutingObserver;
  /**
   * The request of this call, when the caller has already checked its shape (a router checking
   * it for the group it calls, RoutingChatService for the router, or a body validated against
   * its wire schema): a layer given this very object does not check it again. It travels with
   * the call it belongs to, so any other request, or one an interceptor replaced, is checked.
   */
  checkedRequest?: ChatRequest;
}

/**
 * A piece of a tool call's arguments as the provider streamed it. `index` numbers the calls of
 * one answer from 0; the first delta of a call carries its `id` and `name`. The whole call still
 * follows as a `tool-call` event, so consumers that ignore deltas lose nothing.
 */
export interface ToolCallDeltaEvent {
  type: 'tool-call-delta';
  index: number;
  id?: string;
  name?: string;
  argumentsDelta: string;
}

/**
 * The prompt's token count, when the provider tells it before the answer (Anthropic's
 * `message_start`): sent before any output only, so a gateway can put it in its first message.
 * The `complete` response's usage stays the one to account by.
 */
export interface InputUsageEvent {
  type: 'input-usage';
  tokenUsage: Pick<TokenUsage, 'inputTokens' | 'cachedInputTokens' | 'cacheWriteInputTokens'>;
}

export type ChatStreamEvent =
  | { type: 'text-delta'; text: string }
  | ToolCallDeltaEvent
  | InputUsageEvent
  | { type: 'tool-call'; toolCall: ToolCall }
  | { type: 'complete'; response: ChatResponse };

/** A chat model. A plain object with a `chat` function is a valid one. */
export interface ChatModel {
  chat(request: ChatRequest, options?: ChatCallOptions): Promise<ChatResponse>;
  /** Ends with exactly one `complete` event, or throws. */
  stream?(request: ChatRequest, options?: ChatCallOptions): AsyncIterable<ChatStreamEvent>;
  supportedCapabilities?(): ReadonlySet<Capability>;
  defaultRequestParameters?(): ChatRequestParameters;
}

/** Whether `value` is a ChatModel: an object with a `chat` function. */
export function isChatModel(value: unknown): value is ChatModel {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { chat?: unknown }).chat === 'function'
  );
}

export interface ChatModelListenerContext {
  request: ChatRequest;
  response?: ChatResponse;
  error?: unknown;
  attributes: Record<string, unknown>;
}

export interface ChatModelListener {
  onRequest?(context: ChatModelListenerContext): void;
  onResponse?(context: ChatModelListenerContext): void;
  onError?(context: ChatModelListenerContext): void;
}
