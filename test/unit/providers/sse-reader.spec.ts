import { describe, expect, it } from '@jest/globals';
import {
  MAX_SSE_EVENT_CHARS,
  OversizedSseEventError,
  readSseMessages,
  SseDecoder,
  type SseMessage,
} from '../../../src/providers/shared/sse-reader.js';

async function* bytes(...pieces: string[]): AsyncGenerator<Uint8Array> {
  for (const piece of pieces) yield new TextEncoder().encode(piece);
}

async function read(...pieces: string[]): Promise<SseMessage[]> {
  const messages: SseMessage[] = [];
  for await (const message of readSseMessages(bytes(...pieces))) messages.push(message);
  return messages;
}

describe('readSseMessages', () => {
  it('dispatches one message per blank line, with the event name when given', async () => {
    expect(await read('event: ping\ndata: {}\n\ndata: {"a":1}\n\n')).toEqual([
      { event: 'ping', data: '{}' },
      { data: '{"a":1}' },
    ]);
  });

  it('reassembles messages split anywhere across chunks, UTF-8 included', async () => {
    const text = 'data: {"t":"héllo wörld"}\n\ndata: [DONE]\n\n';
    const encoded = new TextEncoder().encode(text);
    async function* oneByteAtATime() {
      for (const byte of encoded) yield new Uint8Array([byte]);
    }
    const messages: SseMessage[] = [];
    for await (const message of readSseMessages(oneByteAtATime())) messages.push(message);
    expect(messages).toEqual([{ data: '{"t":"héllo wörld"}' }, { data: '[DONE]' }]);
  });

  it('accepts CRLF and CR line ends, even with CRLF split between chunks', async () => {
    expect(await read('data: a\r', '\n\r\n', 'data: b\r\rdata: c\n\n')).toEqual([
      { data: 'a' },
      { data: 'b' },
      { data: 'c' },
    ]);
  });

  it('joins multi-line data, ignores comments and unknown fields', async () => {
    expect(await read(': keep-alive\nid: 7\ndata: line1\ndata:line2\nretry: 10\n\n')).toEqual([
      { data: 'line1\nline2' },
    ]);
  });

  it('discards an event the body ends in the middle of (it was cut)', async () => {
    expect(await read('data: {"complete":true}\n\ndata: {"cut":')).toEqual([
      { data: '{"complete":true}' },
    ]);
  });
});

describe('readSseMessages, bounded', () => {
  it('keeps a CRLF together when each half ends a piece of its own', async () => {
    expect(await read('data: a\r', '\n', '\n', 'data: b\n\n')).toEqual([
      { data: 'a' },
      { data: 'b' },
    ]);
  });

  it('refuses an event over its limit, counting its data lines and the line being read', async () => {
    const pieces = ['data: 0123456789\n', 'data: 0123456789', '0123456789', '\n\n'];
    const seen: SseMessage[] = [];
    const bounded = async () => {
      for await (const message of readSseMessages(bytes(...pieces), 32)) seen.push(message);
    };
    await expect(bounded()).rejects.toBeInstanceOf(OversizedSseEventError);
    expect(seen).toEqual([]);
    // under the default limit the same event is whole
    expect(await read(...pieces)).toEqual([{ data: '0123456789\n01234567890123456789' }]);
  });

  it('stops reading a line that never ends at the limit, not at the end of the body', async () => {
    let pieces = 0;
    const piece = new Uint8Array(64 * 1024).fill(0x78);
    async function* endless(): AsyncGenerator<Uint8Array> {
      yield new TextEncoder().encode('data: ');
      for (;;) {
        pieces += 1;
        yield piece;
      }
    }
    const reading = async () => {
      for await (const message of readSseMessages(endless())) void message;
    };
    await expect(reading()).rejects.toThrow(`over ${MAX_SSE_EVENT_CHARS} characters`);
    expect(pieces).toBeLessThanOrEqual(MAX_SSE_EVENT_CHARS / piece.length + 1);
  });
});

const encode = (text: string) => new TextEncoder().encode(text);

describe('SseDecoder', () => {
  it("answers a piece's messages together, and those before an oversized event first", () => {
    const decoder = new SseDecoder(32);
    expect(decoder.push(encode('data: a\n\nevent: e\ndata: b\n\ndata: c'))).toEqual([
      { data: 'a' },
      { event: 'e', data: 'b' },
    ]);
    expect(decoder.failure).toBeUndefined();
    expect(decoder.push(encode('\n\ndata: d\n\ndata: 0123456789012345678901234567890123'))).toEqual(
      [{ data: 'c' }, { data: 'd' }],
    );
    expect(decoder.failure).toBeInstanceOf(OversizedSseEventError);
    // nothing more is decoded once it failed
    expect(decoder.push(encode('\n\ndata: e\n\n'))).toEqual([]);
  });
});
