import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

type Headers = Record<string, string | number | readonly string[] | undefined>;

/** Writes Server-Sent Events the way OpenAI's clients read them: `data: <json>` blocks. */
export class SseWriter {
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

  data(payload: unknown): void {
    if (this.open) this.raw.write(`data: ${JSON.stringify(payload)}\n\n`);
  }

  /** The normal end of a stream. */
  done(): void {
    if (!this.open) return;
    this.raw.write('data: [DONE]\n\n');
    this.raw.end();
  }

  /** An unfinished stream: the error event, and no `[DONE]`, so no client takes it as complete. */
  fail(body: unknown): void {
    if (!this.open) return;
    this.data(body);
    this.raw.end();
  }
}
