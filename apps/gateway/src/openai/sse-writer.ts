import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

type Headers = Record<string, string | number | readonly string[] | undefined>;

/** Writes Server-Sent Events the way OpenAI's clients read them: `data: <json>` blocks. */
export class SseWriter {
  private corked = false;

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
    if (this.open) this.write(`data: ${JSON.stringify(payload)}\n\n`);
  }

  /** The normal end of a stream. */
  done(): void {
    if (!this.open) return;
    this.write('data: [DONE]\n\n');
    this.raw.end();
  }

  /**
   * Events that arrive together (a provider's chunk often carries several) leave in one write:
   * the socket is corked until the current tick's work is done, not for any fixed time.
   */
  private write(text: string): void {
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

  /** An unfinished stream: the error event, and no `[DONE]`, so no client takes it as complete. */
  fail(body: unknown): void {
    if (!this.open) return;
    this.data(body);
    this.raw.end();
  }
}
