/** One server-sent event: its `event:` name (if any) and its `data:` lines joined by `\n`. */
export interface SseMessage {
  event?: string;
  data: string;
}

/**
 * Decodes a `text/event-stream` body into messages, per the SSE spec: `\n`, `\r\n` or `\r` line
 * ends, comments (`:`) ignored, an event dispatched at each blank line, and an unterminated event
 * at the end of the body discarded (it was cut). We decode ourselves rather than through the SDKs'
 * stream iterators because those end the whole stream at the first unparseable chunk, and cannot
 * tell a stream that ended cleanly from one that was cut.
 */
export async function* readSseMessages(
  body: AsyncIterable<Uint8Array>,
): AsyncGenerator<SseMessage> {
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  let event: string | undefined;
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    let lineEnd: RegExpExecArray | null;
    while ((lineEnd = /\r\n|\r|\n/.exec(buffer)) !== null) {
      // a lone '\r' at the end of the buffer may be the first half of '\r\n': wait for more
      if (lineEnd[0] === '\r' && lineEnd.index === buffer.length - 1) break;
      const line = buffer.slice(0, lineEnd.index);
      buffer = buffer.slice(lineEnd.index + lineEnd[0].length);
      if (line === '') {
        if (data.length > 0)
          yield event === undefined ? { data: data.join('\n') } : { event, data: data.join('\n') };
        data = [];
        event = undefined;
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'data') data.push(value);
      else if (field === 'event') event = value;
    }
  }
}
