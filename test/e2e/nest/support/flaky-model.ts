import type { ChatCallOptions, ChatModel } from '../../../../src/core/chat/chat-model.js';
import type { ChatRequest } from '../../../../src/core/chat/request.js';
import type { ChatResponse } from '../../../../src/core/chat/response.js';

/** A model that answers with its name, or fails with a 503-like error while `failing` is set. */
export class SwitchableModel implements ChatModel {
  failing = false;
  calls = 0;
  lastAttributes: Record<string, unknown> | undefined;

  constructor(readonly name: string) {}

  async chat(request: ChatRequest, options: ChatCallOptions = {}): Promise<ChatResponse> {
    this.calls++;
    this.lastAttributes = options.attributes;
    if (this.failing) {
      const error = new Error(
        `${this.name} answered 503 Service Unavailable (api_key=sk-secret123456789)`,
      );
      error.name = 'UpstreamUnavailable';
      throw error;
    }
    const last = request.messages.at(-1);
    const text = last?.role === 'user' && typeof last.content === 'string' ? last.content : '';
    return {
      aiMessage: { role: 'assistant', text: `${this.name}: ${text}` },
      modelName: `${this.name}-v1`,
      tokenUsage: { totalTokens: 10 },
    };
  }
}

/** Streams a tick every few ms until its caller aborts; records the abort. */
export class TickerModel implements ChatModel {
  signal: AbortSignal | undefined;
  ticks = 0;
  finished = false;

  chat(): Promise<ChatResponse> {
    return Promise.reject(new Error('TickerModel only streams'));
  }

  async *stream(_request: ChatRequest, options: ChatCallOptions = {}) {
    this.signal = options.signal;
    try {
      for (;;) {
        if (options.signal?.aborted) throw options.signal.reason;
        await delay(2, options.signal);
        this.ticks++;
        yield { type: 'text-delta' as const, text: `tick ${this.ticks} ` };
      }
    } finally {
      this.finished = true;
    }
  }
}

function delay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
