import { fakeAnswer, type Outcome } from './fault-client.js';
import { group, QUICK_MS, type Scenario } from './fault-scenario.js';
import { brokenRules, gradeAnswer, verdict, type Verdict } from './fault-verdicts.js';
import { wireAnswer } from './wire-fault-plays.js';

/**
 * 200s that are not (quite) an answer: an error body, no choices, no content, a finish reason
 * other than `stop`, usage missing or negative; and bodies that are not what they say (HTML or
 * text, a corrupt gzip, invalid UTF-8, a BOM, longer or shorter than their `content-length`).
 */
export const ANSWER_FAULTS: Scenario[] = [
  failover('s30', '200 with an error JSON body instead of choices', 'error-200'),
  failover('s31', '200 with `choices: []`', 'empty-choices'),
  failover('s32', '200 with `content: null` and no tool calls', 'null-content'),
  {
    name: 'finish_reason `length` (max_tokens reached)',
    ...group('s33', [
      ['a', 'fake', 's33-a'],
      ['b', 'fake', 's33-b'],
    ]),
    run: async ({ ask }) =>
      gradeFinish(
        await ask({ router: 's33', stream: false, limitMs: 30_000, body: { max_tokens: 3 } }),
        'length',
        fakeAnswer('s33-a'),
      ),
  },
  {
    name: 'finish_reason `length` (stream)',
    ...group('s34', [
      ['a', 'fake', 's34-a'],
      ['b', 'fake', 's34-b'],
    ]),
    run: async ({ ask }) =>
      gradeFinish(
        await ask({ router: 's34', stream: true, limitMs: 30_000, body: { max_tokens: 3 } }),
        'length',
        fakeAnswer('s34-a'),
      ),
  },
  {
    name: 'finish_reason `content_filter`',
    ...group('s35', [
      ['a', 'fake', 's35-a-fault-content-filter-finish'],
      ['b', 'fake', 's35-b'],
    ]),
    run: async ({ ask }) =>
      gradeFinish(
        await ask({ router: 's35', stream: false, limitMs: 30_000 }),
        'content_filter',
        fakeAnswer('s35-a-fault-content-filter-finish'),
      ),
  },
  {
    name: 'finish_reason `content_filter` (stream)',
    ...group('s36', [
      ['a', 'fake', 's36-a-fault-content-filter-finish'],
      ['b', 'fake', 's36-b'],
    ]),
    run: async ({ ask }) =>
      gradeFinish(
        await ask({ router: 's36', stream: true, limitMs: 30_000 }),
        'content_filter',
        fakeAnswer('s36-a-fault-content-filter-finish'),
      ),
  },
  {
    name: 'negative usage',
    ...group('s37', [['a', 'wire', 's37-a-negative-usage']]),
    run: async ({ ask }) => {
      const outcome = await ask({ router: 's37', stream: false, limitMs: 30_000 });
      const graded = gradeAnswer(outcome, [wireAnswer('s37-a-negative-usage')], QUICK_MS);
      const counts = Object.values(outcome.usage ?? {}).filter((n) => typeof n === 'number');
      if (counts.some((n) => n < 0)) {
        return verdict('fail', `${graded.detail}, usage ${JSON.stringify(outcome.usage)}`);
      }
      return verdict(graded.grade, `${graded.detail}, usage ${JSON.stringify(outcome.usage)}`);
    },
  },
  {
    name: 'usage missing',
    ...group('s38', [['a', 'wire', 's38-a-no-usage']]),
    run: async ({ ask }) => {
      const outcome = await ask({ router: 's38', stream: false, limitMs: 30_000 });
      const graded = gradeAnswer(outcome, [wireAnswer('s38-a-no-usage')], QUICK_MS);
      return verdict(graded.grade, `${graded.detail}, usage ${JSON.stringify(outcome.usage)}`);
    },
  },
  failover('s39', '200 `text/html` (a captive portal)', 'html-200'),
  {
    name: '200 `text/plain` carrying the JSON answer',
    ...group('s40', [
      ['a', 'wire', 's40-a-plain-200'],
      ['b', 'fake', 's40-b'],
    ]),
    run: async ({ ask }) =>
      gradeAnswer(
        await ask({ router: 's40', stream: false, limitMs: 30_000 }),
        [wireAnswer('s40-a-plain-200'), fakeAnswer('s40-b')],
        QUICK_MS,
      ),
  },
  failover('s41', 'a corrupt `gzip` body', 'bad-gzip'),
  {
    name: 'invalid UTF-8 bytes in the answer',
    ...group('s42', [['a', 'wire', 's42-a-bad-utf8']]),
    run: async ({ ask }) =>
      gradeAnswer(
        await ask({ router: 's42', stream: false, limitMs: 30_000 }),
        [`${wireAnswer('s42-a-bad-utf8')}\uFFFD\uFFFD`],
        QUICK_MS,
      ),
  },
  {
    name: 'a BOM before the JSON, alone in its group',
    ...group('s43', [['a', 'wire', 's43-a-bom-json']]),
    run: async ({ ask }) =>
      gradeAnswer(
        await ask({ router: 's43', stream: false, limitMs: 30_000 }),
        [wireAnswer('s43-a-bom-json')],
        QUICK_MS,
      ),
  },
  {
    name: 'body longer than its content-length (kept alive), twice',
    ...group('s44', [
      ['a', 'wire2', 's44-a-long-body'],
      ['b', 'fake', 's44-b'],
    ]),
    run: async ({ ask }) => {
      const first = gradeAnswer(
        await ask({ router: 's44', stream: false, limitMs: 30_000 }),
        [fakeAnswer('s44-b')],
        QUICK_MS,
      );
      const second = gradeAnswer(
        await ask({ router: 's44', stream: false, limitMs: 30_000 }),
        [fakeAnswer('s44-b')],
        QUICK_MS,
      );
      return first.grade === 'pass'
        ? verdict(second.grade, `${first.detail}; then ${second.detail}`)
        : first;
    },
  },
  failover('s45', 'body shorter than its content-length (connection closed)', 'short-body'),
];

/** A router `id` of a wire fault `fault` then a healthy model: the caller gets the latter's answer. */
function failover(id: string, name: string, fault: string): Scenario {
  return {
    name,
    ...group(id, [
      ['a', 'wire', `${id}-a-${fault}`],
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

/**
 * A finish reason other than `stop` is an answer, not a failure: pass when the caller got it as
 * it was (with a prefix of `whole`, when given), fail when it was reported as `stop`.
 */
function gradeFinish(outcome: Outcome, finish: string, whole?: string): Verdict {
  const broken = brokenRules(outcome);
  if (broken) return broken;
  if (outcome.error)
    return verdict('fail', `an error instead of the answer: ${outcome.error.message}`);
  const got = `${JSON.stringify(outcome.text.slice(0, 40))}, finish ${String(outcome.finish)}, from ${outcome.model ?? '?'}`;
  if (outcome.finish !== finish) return verdict('fail', `reported as ${got}`);
  if (whole !== undefined && (outcome.text === '' || !whole.startsWith(outcome.text))) {
    return verdict('fail', `not the model's text: ${got}`);
  }
  return verdict('pass', got);
}
