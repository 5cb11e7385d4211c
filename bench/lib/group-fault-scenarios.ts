import { setTimeout as sleep } from 'node:timers/promises';
import { fakeAnswer } from './fault-client.js';
import { group, QUICK_MS, stillServes, type Scenario } from './fault-scenario.js';
import { UPSTREAM_KEY } from './fault-upstreams.js';
import { gradeAnswer, gradeError, verdict, worse } from './fault-verdicts.js';

/**
 * Faults around the group: a key the provider refuses, the caller's own mistakes (which must not
 * count against a model), every model down, recovery, and what the gateway shows afterwards.
 */
export const GROUP_FAULTS: Scenario[] = [
  {
    name: 'upstream 401 (wrong key, echoed by the provider)',
    ...group('s14', [['k', 'keyed', 's14-k']]),
    run: async ({ ask }) =>
      gradeError(await ask({ router: 's14', stream: false, limitMs: 30_000 }), QUICK_MS),
  },
  {
    name: "caller's 400 (context too long) does not open the circuit",
    ...group('s15', [
      ['a', 'fake', 's15-a'],
      ['b', 'fake', 's15-b'],
    ]),
    run: async ({ ask, upstreams }) => {
      for (const id of ['s15-a', 's15-b']) upstreams.fake.setFault(id, 'context-length');
      const refused = gradeError(
        await ask({ router: 's15', stream: false, limitMs: 30_000 }),
        QUICK_MS,
        [400],
      );
      for (const id of ['s15-a', 's15-b']) upstreams.fake.setFault(id, undefined);
      // the prompt was the caller's problem: the first model must still be in service
      return worse(refused, await stillServes(ask, 's15', 's15-a'));
    },
  },
  {
    name: "caller's invalid request (400) is not the model's failure (stream)",
    ...group('s19', [
      ['a', 'fake', 's19-a'],
      ['b', 'fake', 's19-b'],
    ]),
    run: async ({ ask, upstreams }) => {
      upstreams.fake.setFault('s19-a', '400');
      const refused = gradeError(
        await ask({ router: 's19', stream: true, limitMs: 30_000 }),
        QUICK_MS,
        [400],
      );
      upstreams.fake.setFault('s19-a', undefined);
      return worse(refused, await stillServes(ask, 's19', 's19-a'));
    },
  },
  {
    name: 'caller hangs up mid-stream: the model is not blamed',
    ...group('s20', [
      ['a', 'steady', 's20-a'],
      ['b', 'fake', 's20-b'],
    ]),
    run: async ({ ask }) => {
      // a token every 2 s: the caller leaves after the first one
      const left = await ask({ router: 's20', stream: true, limitMs: 30_000, abortAfterChars: 1 });
      const hungUp =
        left.error === undefined && left.text.length > 0 && left.ms < 10_000
          ? verdict('safe', `hung up after ${left.text.length} characters`)
          : verdict('fail', `the caller could not hang up: ${JSON.stringify(left.error)}`);
      return worse(hungUp, await stillServes(ask, 's20', 's20-a'));
    },
  },
  {
    name: 'every model down: a clear 503, quickly',
    ...group('s16', [
      ['a', 'fake', 's16-a-fault-503'],
      ['b', 'fake', 's16-b-fault-503'],
    ]),
    run: async ({ ask }) => {
      const first = gradeError(
        await ask({ router: 's16', stream: false, limitMs: 30_000 }),
        QUICK_MS,
        [502, 503],
      );
      const second = await ask({ router: 's16', stream: true, limitMs: 30_000 });
      return worse(first, gradeError(second, 1_000, [503]));
    },
  },
  {
    name: 'recovery after the cooldown (stream)',
    ...group('s17', [
      ['a', 'fake', 's17-a'],
      ['b', 'fake', 's17-b'],
    ]),
    run: async ({ ask, upstreams }) => {
      upstreams.fake.setFault('s17-a', '500');
      const failed = gradeAnswer(
        await ask({ router: 's17', stream: true, limitMs: 30_000 }),
        [fakeAnswer('s17-b')],
        QUICK_MS,
      );
      const downAt = performance.now();
      upstreams.fake.setFault('s17-a', undefined);
      // the default cooldown is 10 s: the first call after it probes the model and gets it back
      for (;;) {
        await sleep(1_000);
        const outcome = await ask({ router: 's17', stream: true, limitMs: 30_000 });
        const since = performance.now() - downAt;
        const graded = gradeAnswer(outcome, [fakeAnswer('s17-a'), fakeAnswer('s17-b')], QUICK_MS);
        if (graded.grade !== 'pass') return worse(failed, graded);
        if (outcome.model === 's17-a') {
          const back = `back on s17-a ${(since / 1000).toFixed(1)} s after its failure`;
          return worse(failed, verdict(since <= 15_000 ? 'pass' : 'partial', back));
        }
        if (since > 40_000) return worse(failed, verdict('partial', 'not back after 40 s'));
      }
    },
  },
  {
    name: 'after every fault: no key in /health, /router/status, /metrics',
    router: 's27',
    models: {},
    last: true,
    run: async ({ origin }) => {
      const leaks: string[] = [];
      const seen: string[] = [];
      for (const path of ['/health', '/router/status', '/metrics', '/v1/models']) {
        const response = await fetch(`${origin}${path}`);
        seen.push(`${path} ${response.status}`);
        const text = `${[...response.headers].join('\n')}\n${await response.text()}`;
        if (text.includes(UPSTREAM_KEY) || text.includes('UPSTREAM-SECRET')) leaks.push(path);
      }
      return leaks.length > 0
        ? verdict('fail', `the upstream key is in ${leaks.join(', ')}`)
        : verdict('safe', `no key in ${seen.join(', ')}`);
    },
  },
];
