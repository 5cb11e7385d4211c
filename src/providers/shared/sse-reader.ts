/** One server-sent event: its `event:` name (if any) and its `data:` lines joined by `\n`. */
export interface SseMessage {
  event?: string;
  data: string;
}

/**
 * The most characters one event may hold (its data lines and the line being read): 8 MiB, as
 * much as the gateway accepts in a request. A chunk of a streamed answer is a few hundred bytes;
 * a server that sends more in one event is broken, and reading on would hold its memory.
 */
export const MAX_SSE_EVENT_CHARS = 8 * 1024 * 1024;

/** An event grew past its limit before it ended: the stream is abandoned. */
export class OversizedSseEventError extends Error {
  readonly code = 'stream_event_too_large';

  constructor(readonly limit: number) {
    super(`an SSE event ran over ${limit} characters without ending; the stream was abandoned`);
    this.name = 'OversizedSseEventError';
  }
}

/**
 * Decodes a `text/event-stream` body into messages, per the SSE spec: `\n`, `\r\n` or `\r` line
 * ends, comments (`:`) ignored, an event dispatched at each blank line, and an unterminated event
 * at the end of the body discarded (it was cut). We decode ourselves rather than through the SDKs'
 * stream iterators because those end the whole stream at the first unparseable chunk, and cannot
 * tell a stream that ended cleanly from one that was cut.
 *
 * Each received piece is scanned once (a line's earlier pieces wait in a list, joined when it
 * ends): scanning the whole pending text again per piece made a long line quadratic, and a 64 MiB
 * line starved the process's event loop for every other call.
 *
 * Synchronous, a piece at a time: a reader loops over each piece's messages, with no promise per
 * message (an async generator's yield per event was ~2 % of a streamed call's CPU).
 */
export class SseDecoder {
  private readonly decoder = new TextDecoder();
  private readonly lineEnd = /\r\n|\r|\n/g;
  private partial: string[] = [];
  private partialChars = 0;
  private data: string[] = [];
  private dataChars = 0;
  private event: string | undefined;
  // a '\r' ended the last piece: a '\n' starting the next one belongs to it
  private afterCr = false;
  /**
   * Set when an event ran over `maxEventChars`: the piece's messages before it are still
   * answered, and the reader throws this once it has handled them; nothing more is decoded.
   */
  failure: OversizedSseEventError | undefined;

  constructor(private readonly maxEventChars: number = MAX_SSE_EVENT_CHARS) {}

  /** The messages `chunk` completes, in order. */
  push(chunk: Uint8Array): SseMessage[] {
    const messages: SseMessage[] = [];
    if (this.failure) return messages;
    let text = this.decoder.decode(chunk, { stream: true });
    if (this.afterCr && text.startsWith('\n')) {
      text = text.slice(1);
      this.afterCr = false;
    } else if (text.length > 0) this.afterCr = false;
    const lineEnd = this.lineEnd;
    let from = 0;
    lineEnd.lastIndex = 0;
    let found: RegExpExecArray | null;
    while ((found = lineEnd.exec(text)) !== null) {
      const piece = text.slice(from, found.index);
      const line = this.partial.length === 0 ? piece : this.partial.join('') + piece;
      this.partial = [];
      this.partialChars = 0;
      from = lineEnd.lastIndex;
      if (found[0] === '\r' && from === text.length) this.afterCr = true;
      if (line === '') {
        if (this.data.length > 0) {
          const data = this.data.join('\n');
          messages.push(this.event === undefined ? { data } : { event: this.event, data });
          this.data = [];
          this.dataChars = 0;
        }
        this.event = undefined;
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'data') {
        this.data.push(value);
        this.dataChars += value.length + 1;
      } else if (field === 'event') this.event = value;
      if (this.dataChars > this.maxEventChars) {
        this.failure = new OversizedSseEventError(this.maxEventChars);
        return messages;
      }
    }
    if (from < text.length) {
      this.partial.push(text.slice(from));
      this.partialChars += text.length - from;
      if (this.partialChars + this.dataChars > this.maxEventChars) {
        this.failure = new OversizedSseEventError(this.maxEventChars);
      }
    }
    return messages;
  }
}

/**
 * The messages of a `text/event-stream` body (see SseDecoder), as an async iterable.
 * @throws OversizedSseEventError when one event runs over `maxEventChars`.
 */
export async function* readSseMessages(
  body: AsyncIterable<Uint8Array>,
  maxEventChars: number = MAX_SSE_EVENT_CHARS,
): AsyncGenerator<SseMessage> {
  const decoder = new SseDecoder(maxEventChars);
  for await (const chunk of body) {
    for (const message of decoder.push(chunk)) yield message;
    if (decoder.failure) throw decoder.failure;
  }
}
