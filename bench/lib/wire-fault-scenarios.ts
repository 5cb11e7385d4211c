import { setTimeout as sleep } from 'node:timers/promises';
import { fakeAnswer } from './fault-client.js';
import { group, QUICK_MS, stillServes, type Scenario } from './fault-scenario.js';
import { gradeAnswer, gradeError, verdict, worse } from './fault-verdicts.js';
import { wireAnswer } from './wire-fault-plays.js';

/**
 * Faults of the headers (trickled, oversized, a redirect), of statuses seen less often (408,
 * 409, 413, 422, 504), of SSE framing, of the Anthropic stream, and of the network (a server that
 * never reads, a name that does not resolve, TLS to a plain port).
 */
export const WIRE_FAULTS: Scenario[] = [
  {
    name: 'response headers trickled a byte a second (stream)',
    ...group('s46', [
      ['a', 'wire', 's46-a-trickle-headers'],
      ['b', 'fake', 's46-b'],
    ]),
    run: async ({ ask }) =>
      gradeAnswer(
        await ask({ router: 's46', stream: true, limitMs: 60_000 }),
        [fakeAnswer('s46-b')],
        15_000,
      ),
  },
  {
    name: 'response headers over 64 KB',
    ...group('s47', [
      ['a', 'wire', 's47-a-huge-headers'],
      ['b', 'fake', 's47-b'],
    ]),
    run: async ({ ask }) =>
      gradeAnswer(
        await ask({ router: 's47', stream: false, limitMs: 30_000 }),
        [wireAnswer('s47-a-huge-headers'), fakeAnswer('s47-b')],
        QUICK_MS,
      ),
  },
  {
    name: '307 redirect to another path (key must not follow)',
    ...group('s48', [
      ['a', 'wire', 's48-a-redirect'],
      ['b', 'fake', 's48-b'],
    ]),
    run: async ({ ask, upstreams }) => {
      const graded = gradeAnswer(
        await ask({ router: 's48', stream: false, limitMs: 30_000 }),
        [fakeAnswer('s48-b')],
        QUICK_MS,
      );
      const followed = upstreams.wire.stolen.length;
      return followed > 0
        ? verdict('fail', `the redirect was followed ${followed} time(s), with the key`)
        : verdict(graded.grade, `not followed; ${graded.detail}`);
    },
  },
  transient('s49', '408 request timeout', '408'),
  transient('s50', '409 conflict', '409'),
  transient('s53', '504 gateway timeout (stream)', '504', true),
  callersFault('s51', "413 from both models (the caller's prompt too large)", '413'),
  callersFault('s52', "422 (the caller's unprocessable request)", '422'),
  streamed('s54', 'a stream that sends `data: [DONE]` first', 'done-first', 'b'),
  streamed('s55', '`[DONE]` twice', 'done-twice'),
  streamed('s56', 'events without `data:` (ping, id, retry)', 'no-data-events'),
  streamed('s57', 'CRLF line endings', 'crlf-stream'),
  streamed('s58', 'a BOM before the first event', 'bom-stream'),
  {
    name: 'Anthropic dialect: `overloaded_error` event before any text (stream)',
    ...group('s59', [
      ['a', 'anthropic', 's59-a-fault-error-after-0'],
      ['b', 'anthropic', 's59-b'],
    ]),
    run: async ({ ask }) =>
      gradeAnswer(
        await ask({ router: 's59', stream: true, limitMs: 30_000 }),
        [fakeAnswer('s59-b')],
        QUICK_MS,
      ),
  },
  {
    name: 'Anthropic dialect: `message_stop` missing (stream)',
    ...group('s60', [
      ['a', 'anthropic', 's60-a-fault-no-done'],
      ['b', 'anthropic', 's60-b'],
    ]),
    run: async ({ ask }) =>
      gradeAnswer(
        await ask({ router: 's60', stream: true, limitMs: 30_000 }),
        [fakeAnswer('s60-a-fault-no-done'), fakeAnswer('s60-b')],
        QUICK_MS,
      ),
  },
  {
    name: 'Anthropic dialect: `message_stop` missing, connection left open (stream)',
    ...group('s73', [
      ['a', 'anthropic', 's73-a-fault-no-done-open'],
      ['b', 'anthropic', 's73-b'],
    ]),
    run: async ({ ask }) =>
      gradeAnswer(
        await ask({ router: 's73', stream: true, limitMs: 60_000 }),
        [fakeAnswer('s73-a-fault-no-done-open')],
        QUICK_MS,
      ),
  },
  {
    name: 'an upstream that never reads the request (6 MB prompt: a full TCP window; stream)',
    ...group('s61', [
      ['a', 'deaf', 's61-a'],
      ['b', 'fake', 's61-b'],
    ]),
    run: async ({ ask, upstreams }) => {
      // a short answer to the long prompt (the fake one echoes it, token by token)
      upstreams.fake.setAnswer('s61-b', { text: 'Lorem ipsum, said s61-b.' });
      // more than the socket buffers hold (4 MiB sent, 128 KiB received while unread)
      const prompt = `Summarise: ${'lorem ipsum '.repeat(510_000)}`;
      const outcome = await ask({ router: 's61', stream: true, limitMs: 60_000, prompt });
      // the first-token wait (12 s), then the 6 MB prompt once more, to the second model
      return gradeAnswer(outcome, ['Lorem ipsum, said s61-b.'], 20_000);
    },
  },
  networkFailover('s62', 'DNS failure for the provider host', 'nodns'),
  networkFailover('s63', 'TLS to a plain-HTTP port', 'tlsplain'),
  {
    name: '429 with `Retry-After: 3600` (stream)',
    ...group('s64', [
      ['a', 'fake', 's64-a-fault-429-retry-after-3600'],
      ['b', 'fake', 's64-b'],
    ]),
    run: async ({ ask }) =>
      gradeAnswer(
        await ask({ router: 's64', stream: true, limitMs: 30_000 }),
        [fakeAnswer('s64-b')],
        QUICK_MS,
      ),
  },
  wired('s65', '429 with `Retry-After: -1` and `retry-after-ms: soon`', 'retry-after-garbage', {
    answers: 'b',
  }),
  wired('s66', 'content as an array of parts', 'content-parts', { answers: 'either' }),
  wired('s67', 'JSON nested a million deep', 'deep-json', { answers: 'b' }),
  wired('s68', 'finish reason, then no usage, no `[DONE]`, connection left open', 'finish-open', {
    stream: true,
  }),
  wired('s69', 'a plain JSON answer to a streamed request', 'json-for-stream', {
    answers: 'either',
    stream: true,
  }),
  wired('s70', '103 Early Hints before the 200', 'early-hints', { answers: 'either' }),
  // a plain call from a model never seen: the 60 s attempt bounds it, as in s29
  wired('s71', 'body trickled a byte a second after quick headers', 'trickle-body', {
    answers: 'b',
    boundMs: 65_000,
  }),
  wired('s72', 'two `content-length` headers that disagree', 'two-lengths', { answers: 'either' }),
  wired('s74', 'Anthropic dialect: 200 `text/html`', 'html-200', {
    answers: 'b',
    provider: 'wireanthropic',
  }),
  wired('s75', 'Anthropic dialect: 200 with an error body', 'error-200', {
    answers: 'b',
    provider: 'wireanthropic',
  }),
  wired('s76', 'not HTTP at all (an SSH banner)', 'not-http', { answers: 'b' }),
  wired('s77', 'connection closed at once, before any byte', 'close-at-once', { answers: 'b' }),
  wired('s78', "a captive portal's HTML page to a streamed request", 'html-200', {
    answers: 'b',
    stream: true,
  }),
  wired('s79', '200 with an empty body', 'empty-body', { answers: 'b' }),
  wired('s80', 'invalid chunked encoding', 'bad-chunking', { answers: 'b' }),
  wired('s81', 'CR-only line endings', 'cr-stream', { stream: true }),
  {
    name: "a proxy's 413 before reading the body, then a reset (2 MB prompt; both models refuse it)",
    ...group('s82', [
      ['a', 'guarded', 's82-a-answer'],
      ['b', 'fake', 's82-b'],
    ]),
    run: async ({ ask, upstreams }) => {
      upstreams.fake.setFault('s82-b', '413');
      const prompt = `Summarise: ${'lorem ipsum '.repeat(170_000)}`;
      const refused = gradeError(
        await ask({ router: 's82', stream: false, limitMs: 30_000, prompt }),
        QUICK_MS,
        [400, 413],
      );
      upstreams.fake.setFault('s82-b', undefined);
      // the prompt was the caller's problem: the first model must still be in service
      const after = await ask({ router: 's82', stream: false, limitMs: 30_000 });
      const next = gradeAnswer(after, [wireAnswer('s82-a-answer'), fakeAnswer('s82-b')], QUICK_MS);
      const served =
        next.grade === 'pass' && after.model !== 's82-a'
          ? verdict('fail', `the model was blamed: the next call went to ${after.model}`)
          : next;
      return worse(refused, served.grade === 'pass' ? verdict('safe', served.detail) : served);
    },
  },
  {
    name: "context-length error event in a 200 stream, before any token (the caller's prompt)",
    ...group('s83', [
      ['a', 'wire', 's83-a-stream-context-error-once'],
      ['b', 'fake', 's83-b'],
    ]),
    run: async ({ ask, upstreams }) => {
      upstreams.fake.setFault('s83-b', 'context-length');
      const refused = gradeError(
        await ask({ router: 's83', stream: true, limitMs: 30_000 }),
        QUICK_MS,
        [400],
      );
      upstreams.fake.setFault('s83-b', undefined);
      const after = await ask({ router: 's83', stream: true, limitMs: 30_000 });
      const faulty = 's83-a-stream-context-error-once';
      const next = gradeAnswer(after, [wireAnswer(faulty), fakeAnswer('s83-b')], QUICK_MS);
      const served =
        next.grade === 'pass' && after.model !== 's83-a'
          ? verdict('fail', `the model was blamed: the next call went to ${after.model}`)
          : next;
      return worse(refused, served.grade === 'pass' ? verdict('safe', served.detail) : served);
    },
  },
  wired('s84', 'rate-limit error event in a 200 stream, before any token', 'stream-rate-error', {
    answers: 'b',
    stream: true,
  }),
  wired('s85', 'finish_reason `abort` (the engine gave up) after a few tokens', 'finish-abort', {
    answers: 'b',
  }),
  {
    name: 'finish_reason `abort` after a token (stream)',
    ...group('s86', [
      ['a', 'wire', 's86-a-finish-abort'],
      ['b', 'fake', 's86-b'],
    ]),
    run: async ({ ask }) =>
      gradeError(await ask({ router: 's86', stream: true, limitMs: 30_000 }), QUICK_MS),
  },
  {
    name: 'keep-alive kept silently: the connection closed after each answer; 8 calls in a row',
    ...group('s87', [
      ['a', 'wire2', 's87-a-close-after-answer'],
      ['b', 'fake', 's87-b'],
    ]),
    run: async ({ ask }) => {
      const byA: number[] = [];
      let last = verdict('pass', '');
      for (let call = 0; call < 8; call++) {
        const outcome = await ask({ router: 's87', stream: false, limitMs: 30_000 });
        last = gradeAnswer(
          outcome,
          [wireAnswer('s87-a-close-after-answer'), fakeAnswer('s87-b')],
          QUICK_MS,
        );
        if (last.grade !== 'pass') return last;
        if (outcome.model === 's87-a') byA.push(call);
        await sleep(100);
      }
      const detail = `${byA.length}/8 answered by s87-a; the last: ${last.detail}`;
      // a closed idle connection is no failure of the model: it must keep serving
      return verdict(byA.length === 8 ? 'pass' : 'partial', detail);
    },
  },
];

/**
 * Wire fault `fault` on model a, a healthy model b: the caller gets a's whole answer (`answers:
 * 'a'`, the default), b's (the fault leaves nothing to pass on), or either.
 */
function wired(
  id: string,
  name: string,
  fault: string,
  {
    answers = 'a',
    stream = false,
    boundMs = QUICK_MS,
    provider = 'wire',
  }: { answers?: 'a' | 'b' | 'either'; stream?: boolean; boundMs?: number; provider?: string },
): Scenario {
  const faulty = `${id}-a-${fault}`;
  const expected = {
    a: [wireAnswer(faulty)],
    b: [fakeAnswer(`${id}-b`)],
    either: [wireAnswer(faulty), fakeAnswer(`${id}-b`)],
  }[answers];
  return {
    name: stream ? `${name} (stream)` : name,
    ...group(id, [
      ['a', provider, faulty],
      ['b', 'fake', `${id}-b`],
    ]),
    run: async ({ ask }) =>
      gradeAnswer(await ask({ router: id, stream, limitMs: boundMs + 30_000 }), expected, boundMs),
  };
}

/** A status that is the model's (or its server's) trouble: retried or failed over. */
function transient(id: string, name: string, status: string, stream = false): Scenario {
  return {
    name,
    ...group(id, [
      ['a', 'fake', `${id}-a-fault-${status}`],
      ['b', 'fake', `${id}-b`],
    ]),
    run: async ({ ask }) =>
      gradeAnswer(
        await ask({ router: id, stream, limitMs: 30_000 }),
        [fakeAnswer(`${id}-b`)],
        QUICK_MS,
      ),
  };
}

/** A status both models give for the caller's request: a 4xx, and no model blamed for it. */
function callersFault(id: string, name: string, status: string): Scenario {
  return {
    name,
    ...group(id, [
      ['a', 'fake', `${id}-a`],
      ['b', 'fake', `${id}-b`],
    ]),
    run: async ({ ask, upstreams }) => {
      for (const model of [`${id}-a`, `${id}-b`]) upstreams.fake.setFault(model, status);
      const refused = gradeError(
        await ask({ router: id, stream: false, limitMs: 30_000 }),
        QUICK_MS,
        [400, Number(status)],
      );
      for (const model of [`${id}-a`, `${id}-b`]) upstreams.fake.setFault(model, undefined);
      return worse(refused, await stillServes(ask, id, `${id}-a`));
    },
  };
}

/**
 * A stream with odd framing from `wire` model a: its whole answer (or, with `expect: 'b'`, the
 * healthy second model's, when nothing usable came before the fault).
 */
function streamed(id: string, name: string, fault: string, expect: 'a' | 'b' = 'a'): Scenario {
  const faulty = `${id}-a-${fault}`;
  return {
    name: `${name} (stream)`,
    ...group(id, [
      ['a', 'wire', faulty],
      ['b', 'fake', `${id}-b`],
    ]),
    run: async ({ ask }) =>
      gradeAnswer(
        await ask({ router: id, stream: true, limitMs: 30_000 }),
        expect === 'a' ? [wireAnswer(faulty)] : [wireAnswer(faulty), fakeAnswer(`${id}-b`)],
        QUICK_MS,
      ),
  };
}

/** A provider that cannot be reached at all: the second model answers. */
function networkFailover(id: string, name: string, provider: string): Scenario {
  return {
    name,
    ...group(id, [
      ['a', provider, `${id}-a`],
      ['b', 'fake', `${id}-b`],
    ]),
    run: async ({ ask }) =>
      gradeAnswer(
        await ask({ router: id, stream: false, limitMs: 30_000 }),
        [fakeAnswer(`${id}-b`)],
        QUICK_MS,
      ),
  };
}
