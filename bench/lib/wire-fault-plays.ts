import type { Socket } from 'node:net';

/**
 * What the wire fault server (wire-fault-server.ts) plays for each fault, chosen by the end of
 * the model id: the bytes of a response, written on the raw socket.
 */
export type Play = (socket: Socket, model: string, origin: string, stream: boolean) => void;

/** The text every wire answer carries, so that a scenario can tell it got the whole of it. */
export const wireAnswer = (model: string) => `Paris, said ${model}.`;

export const completion = (
  model: string,
  text: string | null,
  extra: Record<string, unknown> = {},
) =>
  JSON.stringify({
    id: 'chatcmpl-wire',
    object: 'chat.completion',
    created: 1_700_000_000,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 9, completion_tokens: 5, total_tokens: 14 },
    ...extra,
  });

export function reply(
  socket: Socket,
  status: number,
  type: string,
  body: string | Buffer,
  headers: string[] = [],
): void {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  socket.write(
    [
      `HTTP/1.1 ${status} ${status === 200 ? 'OK' : 'Fault'}`,
      `content-type: ${type}`,
      `content-length: ${bytes.length}`,
      ...headers,
      '',
      '',
    ].join('\r\n'),
  );
  socket.write(bytes);
}

/** A stream's head: chunked, so the body's end is the chunk of length 0. */
function streamHead(socket: Socket): void {
  socket.write(
    'HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n',
  );
}

function writeChunk(socket: Socket, text: string): void {
  const bytes = Buffer.from(text);
  socket.write(`${bytes.length.toString(16)}\r\n`);
  socket.write(bytes);
  socket.write('\r\n');
}

/** A whole, correct stream of `wireAnswer(model)`: its chunks, each an SSE event. */
function streamEvents(model: string, eol = '\n'): string[] {
  const words = wireAnswer(model).split(/(?<= )/);
  const event = (delta: object, finish: string | null) =>
    `data: ${JSON.stringify({
      id: 'chatcmpl-wire',
      object: 'chat.completion.chunk',
      created: 1_700_000_000,
      model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    })}${eol}${eol}`;
  return [
    event({ role: 'assistant', content: '' }, null),
    ...words.map((word) => event({ content: word }, null)),
    event({}, 'stop'),
  ];
}

const DONE = 'data: [DONE]\n\n';

function playStream(socket: Socket, events: string[]): void {
  streamHead(socket);
  for (const event of events) writeChunk(socket, event);
  socket.write('0\r\n\r\n');
}

export const WIRE_PLAYS: Array<[suffix: string, play: Play]> = [
  // --- 200s that are not an answer ---
  [
    'error-200',
    (s) =>
      reply(
        s,
        200,
        'application/json',
        '{"error":{"message":"The server had an error while processing your request","type":"server_error"}}',
      ),
  ],
  [
    'empty-choices',
    (s, m) => reply(s, 200, 'application/json', completion(m, null, { choices: [] })),
  ],
  ['null-content', (s, m) => reply(s, 200, 'application/json', completion(m, null))],
  [
    'negative-usage',
    (s, m) =>
      reply(
        s,
        200,
        'application/json',
        completion(m, wireAnswer(m), {
          usage: { prompt_tokens: -9, completion_tokens: -5, total_tokens: -14 },
        }),
      ),
  ],
  [
    'no-usage',
    (s, m) => reply(s, 200, 'application/json', completion(m, wireAnswer(m), { usage: undefined })),
  ],
  // --- bodies that are not what they say ---
  [
    'html-200',
    (s) => reply(s, 200, 'text/html', '<html><body><h1>Welcome to nginx!</h1></body></html>'),
  ],
  ['plain-200', (s, m) => reply(s, 200, 'text/plain', completion(m, wireAnswer(m)))],
  [
    'bad-gzip',
    (s) =>
      reply(s, 200, 'application/json', Buffer.from([0x1f, 0x8b, 8, 0, 0xde, 0xad, 0xbe, 0xef]), [
        'content-encoding: gzip',
      ]),
  ],
  [
    'bad-utf8',
    (s, m) => {
      const [before, after] = completion(m, `${wireAnswer(m)}@`).split('@');
      reply(
        s,
        200,
        'application/json',
        Buffer.concat([Buffer.from(before!), Buffer.from([0xff, 0xfe]), Buffer.from(after!)]),
      );
    },
  ],
  [
    'bom-json',
    (s, m) =>
      reply(s, 200, 'application/json; charset=utf-8', `\uFEFF${completion(m, wireAnswer(m))}`),
  ],
  [
    'long-body',
    (s, m) => {
      // content-length covers half the answer: what is read is cut JSON, the rest is garbage
      const body = completion(m, wireAnswer(m));
      s.write(
        `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Math.floor(body.length / 2)}\r\n\r\n${body}`,
      );
    },
  ],
  [
    'short-body',
    (s, m) => {
      const body = completion(m, wireAnswer(m));
      s.write(
        `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length * 2}\r\n\r\n${body}`,
      );
      s.end();
    },
  ],
  // --- headers ---
  [
    'trickle-headers',
    (s) => {
      const head = 'HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nx-padding: ';
      let at = 0;
      const timer = setInterval(() => {
        if (s.destroyed) return clearInterval(timer);
        // the status line and a header, then a header value that never ends: a byte a second
        s.write(at < head.length ? head[at]! : 'x');
        at += 1;
      }, 1_000);
      s.on('close', () => clearInterval(timer));
    },
  ],
  [
    'huge-headers',
    (s, m) =>
      reply(s, 200, 'application/json', completion(m, wireAnswer(m)), [
        `x-padding: ${'x'.repeat(80 * 1024)}`,
      ]),
  ],
  [
    'redirect',
    (s, _m, origin) =>
      reply(s, 307, 'application/json', '{"error":{"message":"moved"}}', [
        `location: ${origin}/stolen/v1/chat/completions`,
      ]),
  ],
  // --- streams ---
  ['done-first', (s, m) => playStream(s, [DONE, ...streamEvents(m), DONE])],
  ['done-twice', (s, m) => playStream(s, [...streamEvents(m), DONE, DONE])],
  [
    'no-data-events',
    (s, m) =>
      playStream(s, [
        'event: ping\n\n',
        'id: 7\n\n',
        'retry: 1000\n\n',
        ...streamEvents(m),
        'event: ping\n\n',
        DONE,
      ]),
  ],
  ['crlf-stream', (s, m) => playStream(s, [...streamEvents(m, '\r\n'), 'data: [DONE]\r\n\r\n'])],
  [
    'bom-stream',
    (s, m) => playStream(s, [`\uFEFF${streamEvents(m)[0]}`, ...streamEvents(m).slice(1), DONE]),
  ],
  // --- found less often ---
  [
    'retry-after-garbage',
    (s) =>
      reply(s, 429, 'application/json', '{"error":{"message":"slow down","type":"rate_limit"}}', [
        'retry-after: -1',
        'retry-after-ms: soon',
      ]),
  ],
  [
    'content-parts',
    (s, m) =>
      reply(
        s,
        200,
        'application/json',
        completion(m, null).replace(
          '"content":null',
          `"content":[{"type":"text","text":${JSON.stringify(wireAnswer(m))}}]`,
        ),
      ),
  ],
  ['deep-json', (s) => reply(s, 200, 'application/json', `${'['.repeat(1_000_000)}`)],
  [
    'finish-open',
    (s, m) => {
      // finished, but no usage and no [DONE]; the connection stays open
      streamHead(s);
      for (const event of streamEvents(m)) writeChunk(s, event);
    },
  ],
  ['json-for-stream', (s, m) => reply(s, 200, 'application/json', completion(m, wireAnswer(m)))],
  [
    'early-hints',
    (s, m) => {
      s.write('HTTP/1.1 103 Early Hints\r\nlink: </style.css>; rel=preload\r\n\r\n');
      reply(s, 200, 'application/json', completion(m, wireAnswer(m)));
    },
  ],
  [
    'trickle-body',
    (s, m) => {
      const body = completion(m, wireAnswer(m));
      s.write(
        `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`,
      );
      let at = 0;
      const timer = setInterval(() => {
        if (s.destroyed || at >= body.length) return clearInterval(timer);
        s.write(body[at]!);
        at += 1;
      }, 1_000);
      s.on('close', () => clearInterval(timer));
    },
  ],
  [
    'two-lengths',
    (s, m) => {
      const body = completion(m, wireAnswer(m));
      s.write(
        `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\ncontent-length: ${body.length + 10}\r\n\r\n${body}`,
      );
    },
  ],
  ['not-http', (s) => s.end('SSH-2.0-OpenSSH_9.6\r\n')],
  ['close-at-once', (s) => s.end()],
  [
    'answer',
    (s, m, _origin, stream) =>
      stream
        ? playStream(s, [...streamEvents(m), DONE])
        : reply(s, 200, 'application/json', completion(m, wireAnswer(m))),
  ],
  [
    'stream-context-error',
    (s) =>
      playStream(s, [
        'data: {"error":{"message":"This model\'s maximum context length is 8192 tokens","type":"invalid_request_error","code":"context_length_exceeded"}}\n\n',
      ]),
  ],
  [
    'stream-rate-error',
    (s) =>
      playStream(s, [
        'data: {"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}\n\n',
      ]),
  ],
  ['empty-body', (s) => reply(s, 200, 'application/json', '')],
  [
    'bad-chunking',
    (s) =>
      s.write(
        'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
      ),
  ],
  [
    'cr-stream',
    (s, m) =>
      playStream(s, [
        ...streamEvents(m).map((event) => event.replaceAll('\n', '\r')),
        'data: [DONE]\r\r',
      ]),
  ],
  [
    // vLLM and SGLang end an answer their engine gave up on with finish_reason `abort`
    'finish-abort',
    (s, m, _origin, stream) => {
      const cut = wireAnswer(m).slice(0, 6);
      if (stream) {
        const events = streamEvents(m);
        playStream(s, [events[0]!, events[1]!, events.at(-1)!.replace('"stop"', '"abort"'), DONE]);
        return;
      }
      const body = completion(m, cut).replace('"finish_reason":"stop"', '"finish_reason":"abort"');
      reply(s, 200, 'application/json', body);
    },
  ],
  [
    // keep-alive said (no `connection: close`), the connection closed a moment after the answer
    'close-after-answer',
    (s, m) => {
      reply(s, 200, 'application/json', completion(m, wireAnswer(m)));
      setTimeout(() => s.end(), 20);
    },
  ],
];
