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
 * @throws OversizedSseEventError when one event runs over `maxEventChars`.
 */
export async function* readSseMessages(
  body: AsyncIterable<Uint8Array>,
  maxEventChars: number = MAX_SSE_EVENT_CHARS,
): AsyncGenerator<SseMessage> {
  const decoder = new TextDecoder();
  const lineEnd = /\r\n|\r|\n/g;
  let partial: string[] = [];
  let partialChars = 0;
  let data: string[] = [];
  let dataChars = 0;
  let event: string | undefined;
  // a '\r' ended the last piece: a '\n' starting the next one belongs to it
  let afterCr = false;
  for await (const chunk of body) {
    let text = decoder.decode(chunk, { stream: true });
    if (afterCr && text.startsWith('\n')) {
      text = text.slice(1);
      afterCr = false;
    } else if (text.length > 0) afterCr = false;
    let from = 0;
    lineEnd.lastIndex = 0;
    let found: RegExpExecArray | null;
    while ((found = lineEnd.exec(text)) !== null) {
      const piece = text.slice(from, found.index);
      const line = partial.length === 0 ? piece : partial.join('') + piece;
      partial = [];
      partialChars = 0;
      from = lineEnd.lastIndex;
      if (found[0] === '\r' && from === text.length) afterCr = true;
      if (line === '') {
        if (data.length > 0) {
          const message = data.join('\n');
          data = [];
          dataChars = 0;
          const name = event;
          event = undefined;
          // the regex's position survives the yield: it belongs to this generator alone
          yield name === undefined ? { data: message } : { event: name, data: message };
        }
        event = undefined;
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'data') {
        data.push(value);
        dataChars += value.length + 1;
      } else if (field === 'event') event = value;
      if (dataChars > maxEventChars) throw new OversizedSseEventError(maxEventChars);
    }
    if (from < text.length) {
      partial.push(text.slice(from));
      partialChars += text.length - from;
      if (partialChars + dataChars > maxEventChars) {
        throw new OversizedSseEventError(maxEventChars);
      }
    }
  }
}
