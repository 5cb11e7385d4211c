import { fakeAnswer } from './fault-client.js';
import { group, QUICK_MS, type Scenario } from './fault-scenario.js';
import { gradeAnswer, gradeError, verdict } from './fault-verdicts.js';

/** Plain answers a model shows before its answer bound is learnt (the default minSamples). */
const LEARNT_AFTER = 20;

const STEADY_TEXT = 'Paris is the capital of France and its largest city by far';

/** Faults of one upstream: its status, its connection, its timing and its bytes. */
export const UPSTREAM_FAULTS: Scenario[] = [
  {
    name: '500, then healthy',
    ...group('s01', [
      ['a', 'fake', 's01-a-fault-500-once'],
      ['b', 'fake', 's01-b'],
    ]),
    run: async ({ ask }) =>
      gradeAnswer(
        await ask({ router: 's01', stream: false, limitMs: 30_000 }),
        [fakeAnswer('s01-a-fault-500-once'), fakeAnswer('s01-b')],
        QUICK_MS,
      ),
  },
  {
    name: '429 with Retry-After: 1 (stream)',
    ...group('s02', [
      ['a', 'fake', 's02-a-fault-429-retry-after-1-once'],
      ['b', 'fake', 's02-b'],
    ]),
    run: async ({ ask }) =>
      gradeAnswer(
        await ask({ router: 's02', stream: true, limitMs: 30_000 }),
        [fakeAnswer('s02-a-fault-429-retry-after-1-once'), fakeAnswer('s02-b')],
        QUICK_MS,
      ),
  },
  {
    name: 'connection refused (stream)',
    ...group('s03', [
      ['a', 'dead', 's03-a'],
      ['b', 'fake', 's03-b'],
    ]),
    run: async ({ ask }) =>
      gradeAnswer(
        await ask({ router: 's03', stream: true, limitMs: 30_000 }),
        [fakeAnswer('s03-b')],
        QUICK_MS,
      ),
  },
  {
    name: 'connection reset mid-body',
    ...group('s04', [
      ['a', 'fake', 's04-a-fault-cut-after-3'],
      ['b', 'fake', 's04-b'],
    ]),
    run: async ({ ask }) =>
      gradeAnswer(
        await ask({ router: 's04', stream: false, limitMs: 30_000 }),
        [fakeAnswer('s04-b')],
        QUICK_MS,
      ),
  },
  {
    name: 'no response headers for 60 s (stream)',
    ...group('s05', [
      ['a', 'fake', 's05-a-fault-hang'],
      ['b', 'fake', 's05-b'],
    ]),
    run: async ({ ask }) =>
      gradeAnswer(
        await ask({ router: 's05', stream: true, limitMs: 60_000 }),
        [fakeAnswer('s05-b')],
        15_000,
      ),
  },
  {
    // a plain call has no first token: what bounds it is what the model's answers have taken
    name: 'no response headers (plain call) from a model that answered 20 quick ones',
    ...group('s26', [
      ['a', 'fake', 's26-a'],
      ['b', 'fake', 's26-b'],
    ]),
    run: async ({ ask, upstreams }) => {
      const warm = await Promise.all(
        Array.from({ length: LEARNT_AFTER }, () =>
          ask({ router: 's26', stream: false, limitMs: 30_000 }),
        ),
      );
      const shown = warm.filter((o) => o.model === 's26-a').length;
      upstreams.fake.setFault('s26-a', 'hang');
      const graded = gradeAnswer(
        await ask({ router: 's26', stream: false, limitMs: 120_000 }),
        [fakeAnswer('s26-b')],
        15_000,
      );
      return verdict(graded.grade, `after ${shown} answers: ${graded.detail}`);
    },
  },
  {
    name: 'slow but steady plain answers: every one takes 20 s',
    ...group('s28', [['r', 'fake', 's28-r-fault-slow-first-token-20000']]),
    run: async ({ ask }) => {
      const warm = await Promise.all(
        Array.from({ length: LEARNT_AFTER }, () =>
          ask({ router: 's28', stream: false, limitMs: 90_000 }),
        ),
      );
      const shown = warm.filter((o) => o.error === undefined).length;
      // learnt now: the next 20 s answer must not be taken for a stall
      const graded = gradeAnswer(
        await ask({ router: 's28', stream: false, limitMs: 90_000 }),
        [fakeAnswer('s28-r-fault-slow-first-token-20000')],
        30_000,
      );
      const result = graded.grade === 'safe' ? verdict('partial', `cut: ${graded.detail}`) : graded;
      return verdict(
        result.grade,
        `${shown}/${LEARNT_AFTER} warm-up answers; then ${result.detail}`,
      );
    },
  },
  {
    // nothing shown yet, so nothing learnt: the configured attempt bound (60 s) holds
    name: 'no response headers (plain call) from a model never seen, bound: the 60 s attempt',
    ...group('s29', [
      ['a', 'fake', 's29-a-fault-hang'],
      ['b', 'fake', 's29-b'],
    ]),
    run: async ({ ask }) =>
      gradeAnswer(
        await ask({ router: 's29', stream: false, limitMs: 120_000 }),
        [fakeAnswer('s29-b')],
        65_000,
      ),
  },
  {
    name: 'first token after 25 s (stream), failed over < 15 s',
    ...group('s06', [
      ['a', 'fake', 's06-a-fault-slow-first-token-25000'],
      ['b', 'fake', 's06-b'],
    ]),
    run: async ({ ask }) =>
      gradeAnswer(
        await ask({ router: 's06', stream: true, limitMs: 60_000 }),
        [fakeAnswer('s06-b')],
        15_000,
      ),
  },
  {
    name: 'slow but steady: first token 8 s, a chunk every 2 s',
    ...group('s07', [
      ['a', 'steady', 's07-a-fault-slow-first-token-8000'],
      ['b', 'fake', 's07-b'],
    ]),
    run: async ({ ask, upstreams }) => {
      upstreams.steady.setAnswer('s07-a-fault-slow-first-token-8000', { text: STEADY_TEXT });
      // 8 s, then 11 more tokens 2 s apart: about 30 s, the whole of it from the steady model
      return gradeAnswer(
        await ask({ router: 's07', stream: true, limitMs: 90_000 }),
        [STEADY_TEXT],
        40_000,
        ['s07-a'],
      );
    },
  },
  {
    name: 'a model that always takes 30 s to its first token',
    ...group('s08', [['r', 'fake', 's08-r-fault-slow-first-token-30000']]),
    run: async ({ ask }) => {
      // it shows its pace on plain calls first (answers within the 60 s attempt bound)
      const warm = await Promise.all(
        [0, 1, 2].map(() => ask({ router: 's08', stream: false, limitMs: 90_000 })),
      );
      const shown = warm.filter((o) => o.error === undefined).length;
      const streamed = await ask({ router: 's08', stream: true, limitMs: 90_000 });
      const graded = gradeAnswer(
        streamed,
        [fakeAnswer('s08-r-fault-slow-first-token-30000')],
        45_000,
      );
      // the model can answer: a clear error instead is a degraded result, not a safe one
      const result = graded.grade === 'safe' ? verdict('partial', `cut: ${graded.detail}`) : graded;
      return verdict(result.grade, `${shown}/3 warm-up answers; stream ${result.detail}`);
    },
  },
  {
    name: 'stall after the first token (stream)',
    ...group('s09', [
      ['a', 'fake', 's09-a-fault-stall-after-2'],
      ['b', 'fake', 's09-b'],
    ]),
    run: async ({ ask }) =>
      gradeError(await ask({ router: 's09', stream: true, limitMs: 90_000 }), 35_000, undefined, [
        fakeAnswer('s09-a-fault-stall-after-2'),
      ]),
  },
  {
    name: 'stream ends without finish reason or [DONE]',
    ...group('s10', [
      ['a', 'raw', 's10-a-no-finish'],
      ['b', 'fake', 's10-b'],
    ]),
    run: async ({ ask }) =>
      gradeError(await ask({ router: 's10', stream: true, limitMs: 30_000 }), QUICK_MS),
  },
  {
    name: 'malformed SSE chunk (stream)',
    ...group('s11', [
      ['a', 'fake', 's11-a-fault-malformed-chunk'],
      ['b', 'fake', 's11-b'],
    ]),
    run: async ({ ask }) =>
      gradeError(await ask({ router: 's11', stream: true, limitMs: 30_000 }), QUICK_MS, undefined, [
        fakeAnswer('s11-a-fault-malformed-chunk'),
      ]),
  },
  {
    name: 'malformed JSON body',
    ...group('s12', [
      ['a', 'raw', 's12-a-malformed-json'],
      ['b', 'fake', 's12-b'],
    ]),
    run: async ({ ask }) =>
      gradeAnswer(
        await ask({ router: 's12', stream: false, limitMs: 30_000 }),
        [fakeAnswer('s12-b')],
        QUICK_MS,
      ),
  },
  {
    name: 'oversized upstream stream (64 MiB line)',
    ...group('s13', [
      ['a', 'raw', 's13-a-oversized'],
      ['b', 'fake', 's13-b'],
    ]),
    run: async ({ ask }) =>
      gradeAnswer(
        await ask({ router: 's13', stream: true, limitMs: 60_000 }),
        [fakeAnswer('s13-b')],
        15_000,
      ),
  },
  {
    name: 'oversized upstream answer (96 MiB JSON)',
    ...group('s18', [
      ['a', 'raw', 's18-a-oversized-json'],
      ['b', 'fake', 's18-b'],
    ]),
    run: async ({ ask }) => {
      const outcome = await ask({ router: 's18', stream: false, limitMs: 60_000 });
      // what the upstream said, but held whole in the gateway's memory for one call
      if (outcome.error === undefined && outcome.text.length > 1024 * 1024) {
        const mib = (outcome.text.length / 2 ** 20).toFixed(0);
        return verdict('partial', `relayed the ${mib} MiB answer whole`);
      }
      return gradeAnswer(outcome, [fakeAnswer('s18-b')], 15_000);
    },
  },
  {
    name: "a proxy's 502 HTML page",
    ...group('s21', [
      ['a', 'raw', 's21-a-proxy-html'],
      ['b', 'fake', 's21-b'],
    ]),
    run: async ({ ask }) =>
      gradeAnswer(
        await ask({ router: 's21', stream: false, limitMs: 30_000 }),
        [fakeAnswer('s21-b')],
        QUICK_MS,
      ),
  },
  {
    name: "a proxy's 502 HTML page, no other model",
    ...group('s23', [['a', 'raw', 's23-a-proxy-html']]),
    run: async ({ ask }) => {
      const outcome = await ask({ router: 's23', stream: false, limitMs: 30_000 });
      const graded = gradeError(outcome, QUICK_MS);
      // a clear error names the failure; it does not forward a page of markup
      const size = outcome.error?.message.length ?? 0;
      return graded.grade === 'safe' && size > 4_096
        ? verdict('partial', `${graded.detail} (${size} characters of error message)`)
        : graded;
    },
  },
  {
    name: 'keep-alive comments every second, never a token (stream)',
    ...group('s22', [
      ['a', 'raw', 's22-a-comments-only'],
      ['b', 'fake', 's22-b'],
    ]),
    run: async ({ ask }) =>
      gradeAnswer(
        await ask({ router: 's22', stream: true, limitMs: 60_000 }),
        [fakeAnswer('s22-b')],
        15_000,
      ),
  },
  {
    name: 'Anthropic dialect: 529 overloaded once (stream)',
    ...group('s24', [
      ['a', 'anthropic', 's24-a-fault-529-once'],
      ['b', 'anthropic', 's24-b'],
    ]),
    run: async ({ ask }) =>
      gradeAnswer(
        await ask({ router: 's24', stream: true, limitMs: 30_000 }),
        [fakeAnswer('s24-a-fault-529-once'), fakeAnswer('s24-b')],
        QUICK_MS,
      ),
  },
  {
    name: 'Anthropic dialect: stream cut after 3 tokens',
    ...group('s25', [
      ['a', 'anthropic', 's25-a-fault-cut-after-3'],
      ['b', 'anthropic', 's25-b'],
    ]),
    run: async ({ ask }) =>
      gradeError(await ask({ router: 's25', stream: true, limitMs: 30_000 }), QUICK_MS),
  },
];
