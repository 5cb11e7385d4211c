import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

type Headers = Record<string, string | number | readonly string[] | undefined>;

/** One Server-Sent Event: `event: <name>` (when named) and `data: <json>`. */
export interface SseMessage {
  event?: string;
  data: unknown;
  /** `data` is a sentinel sent as is, not JSON (OpenAI's `[DONE]`). */
  raw?: boolean;
}

/** How an OpenAI stream says it is complete. */
export const DONE: SseMessage = { data: '[DONE]', raw: true };

/**
 * Writes Server-Sent Events: unnamed `data:` blocks as chat completions send them, or named ones
 * as the Responses and Anthropic Messages APIs do (`event: response.output_text.delta`).
 */
export class EventStream {
  private corked = false;
  private written = false;

  constructor(private readonly raw: ServerResponse) {}

  get open(): boolean {
    return !this.raw.writableEnded && !this.raw.destroyed;
  }

  /** `headers`: those set on the framework's reply so far (the routing headers among them). */
  start(headers: Headers): void {
    this.raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      // no Connection header of our own: Node answers keep-alive, or close when the request
      // said `Connection: close` (a fixed keep-alive here overrode the client's wish)
      // proxies such as nginx would otherwise hold the deltas back
      'x-accel-buffering': 'no',
      ...(headers as OutgoingHttpHeaders),
    });
  }

  send(messages: readonly SseMessage[]): void {
    if (!this.open || messages.length === 0) return;
    let text = '';
    for (const { event, data, raw } of messages) {
      text += `${event ? `event: ${event}\n` : ''}data: ${raw ? String(data) : JSON.stringify(data)}\n\n`;
    }
    this.write(text);
  }

  end(messages: readonly SseMessage[] = []): void {
    if (!this.open) return;
    this.send(messages);
    this.raw.end();
  }

  /**
   * Events that arrive together (a provider's chunk often carries several) leave in one write:
   * the socket is corked until the current tick's work is done, not for any fixed time. The
   * head and the first event leave at once: Node's own write corks the socket until the next
   * tick, which a write inside a promise chain reaches only once every event of the provider's
   * chunk (often the whole answer) was encoded, so the first byte waited for the last one.
   */
  private write(text: string): void {
    if (!this.written) {
      this.written = true;
      this.raw.write(text);
      this.raw.uncork();
      return;
    }
    if (!this.corked) {
      this.corked = true;
      this.raw.cork();
      process.nextTick(() => {
        this.corked = false;
        this.raw.uncork();
      });
    }
    this.raw.write(text);
  }
}
