import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

type Headers = Record<string, string | number | readonly string[] | undefined>;

/** One Server-Sent Event: `event: <name>` (when named) and `data: <json>`. */
export interface SseMessage {
  event?: string;
  data: unknown;
}

/**
 * Writes named Server-Sent Events, as the Responses and Anthropic Messages APIs send them
 * (`event: response.output_text.delta` / `data: {...}`); there is no `[DONE]` sentinel on
 * either: the terminal event is part of the protocol.
 */
export class EventStream {
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
      // said `Connection: close` (as SseWriter)
      // proxies such as nginx would otherwise hold the deltas back
      'x-accel-buffering': 'no',
      ...(headers as OutgoingHttpHeaders),
    });
  }

  send(messages: readonly SseMessage[]): void {
    if (!this.open || messages.length === 0) return;
    let text = '';
    for (const { event, data } of messages) {
      text += `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`;
    }
    this.raw.write(text);
  }

  end(messages: readonly SseMessage[] = []): void {
    if (!this.open) return;
    this.send(messages);
    this.raw.end();
  }
}
