import type {
  ChatCallOptions,
  ChatModel,
  ChatStreamEvent,
} from '../../../../../src/core/chat/chat-model.js';
import type { ChatRequest } from '../../../../../src/core/chat/request.js';
import type { ChatResponse, TokenUsage } from '../../../../../src/core/chat/response.js';
import type { RoutingEvent } from '../../../../../src/core/observability/routing-event.js';
import { ROUTE_ATTRIBUTE } from '../../../../../src/core/chat/call-attributes.js';
import { MODEL_ATTRIBUTE } from '../../../../../src/core/chat/call-attributes.js';

/** What one call of a ScriptedRouter does, in order: report events, take time, then answer or fail. */
export interface CallScript {
  events?: RoutingEvent[];
  /** Added to the shared clock while the call runs. */
  takesMs?: number;
  /** Served by this model (sent in the response like a ModelRouter does). */
  model?: string;
  route?: string;
  tokenUsage?: TokenUsage;
  failWith?: unknown;
  /** Never settles on its own: waits for the call's signal. */
  hang?: boolean;
}

/**
 * Stands in for a RoutingChatModel: plays one script per call (the last one repeats), reporting
 * its routing events to the call's observer like the real routers do.
 */
export class ScriptedRouter implements ChatModel {
  calls = 0;
  scripts: CallScript[] = [];

  constructor(private readonly clock: { now: number }) {}

  async chat(_request: ChatRequest, options: ChatCallOptions = {}): Promise<ChatResponse> {
    const script = this.scripts[Math.min(this.calls, this.scripts.length - 1)] ?? {};
    this.calls++;
    for (const event of script.events ?? []) options.observer?.(event);
    this.clock.now += script.takesMs ?? 0;
    if (script.hang) {
      await new Promise<never>((_, reject) => {
        const signal = options.signal;
        if (signal?.aborted) reject(signal.reason);
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
    }
    if (script.failWith !== undefined) throw script.failWith;
    return {
      aiMessage: {
        role: 'assistant',
        text: 'answer',
        attributes: {
          ...(script.route !== undefined ? { [ROUTE_ATTRIBUTE]: script.route } : {}),
          ...(script.model !== undefined ? { [MODEL_ATTRIBUTE]: script.model } : {}),
        },
      },
      ...(script.model !== undefined ? { modelName: `${script.model}-v1` } : {}),
      ...(script.tokenUsage ? { tokenUsage: script.tokenUsage } : {}),
    };
  }

  async *stream(
    request: ChatRequest,
    options: ChatCallOptions = {},
  ): AsyncIterable<ChatStreamEvent> {
    const response = await this.chat(request, options);
    yield { type: 'text-delta', text: response.aiMessage.text ?? '' };
    yield { type: 'complete', response };
  }
}
