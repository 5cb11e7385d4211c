import { describe, it, expect } from '@jest/globals';
import type { ScoredAnswer } from '../../../../src/core/decision/answer-scoring.js';
import { Teacher } from '../../../../src/core/decision/teacher.js';
import { InvalidConfigurationException } from '../../../../src/core/errors/exceptions.js';
import { InMemoryRouteStateStore } from '../../../../src/core/state/in-memory-route-state-store.js';

const judge = { decide: async () => ({ value: 'a' }) };
const at = (p: number): ScoredAnswer => ({ route: 'a', probabilities: { a: p, b: 1 - p } });

function teacher(options: ConstructorParameters<typeof Teacher>[1] = {}) {
  let now = 1_000_000;
  const clock = () => now;
  return {
    teacher: new Teacher(judge, { clock, ...options }),
    clock,
    advance: (ms: number) => (now += ms),
  };
}

/** How many of `answers` the teacher is asked about, in order. */
function asks(t: Teacher, answers: readonly ScoredAnswer[]): boolean[] {
  return answers.map((answer) => t.shouldAsk(answer));
}

describe('Teacher: a share budget aimed at the least confident decisions', () => {
  it('is asked for at most maxShare of any 100 consecutive decisions (default 0.3)', () => {
    const { teacher: t } = teacher();
    // always unsure: only the budget holds the teacher back
    const asked = asks(
      t,
      Array.from({ length: 400 }, (_, i) => at(0.2 + (i % 7) * 0.04)),
    );
    for (let start = 0; start + 100 <= asked.length; start++) {
      expect(asked.slice(start, start + 100).filter(Boolean).length).toBeLessThanOrEqual(30);
    }
    // the budget is used, not starved: 30 of the first 100
    expect(asked.slice(0, 100).filter(Boolean).length).toBe(30);
    expect(t.stats()).toMatchObject({ decisions: 400, maxShare: 0.3 });
    expect(t.stats().recentShare).toBeLessThanOrEqual(0.3);
    expect(t.stats().deferred).toBe(400 - t.stats().taught);
  });

  it('spends the budget on the least confident decisions once the window ranks them', () => {
    const { teacher: t } = teacher({ maxShare: 0.3 });
    // 40 decisions: a quarter very unsure (0.2), the rest mildly unsure (0.5)
    const answers = Array.from({ length: 40 }, (_, i) => at(i % 4 === 0 ? 0.2 : 0.5));
    asks(t, answers);
    // the ring has room (≤ 30 asked of 40), so only the ranking decides from here on
    const before = t.stats().taught;
    expect(t.shouldAsk(at(0.2))).toBe(true);
    expect(t.shouldAsk(at(0.5))).toBe(false);
    expect(t.shouldAsk(at(0.9))).toBe(false); // confident: never asked
    expect(t.stats().taught).toBe(before + 1);
  });

  it('asks less as the first model grows confident, none above teachBelow', () => {
    const { teacher: t } = teacher({ teachBelow: 0.6 });
    const unsure = asks(
      t,
      Array.from({ length: 100 }, () => at(0.3)),
    );
    const confident = asks(
      t,
      Array.from({ length: 100 }, () => at(0.8)),
    );
    expect(unsure.filter(Boolean).length).toBe(30);
    expect(confident.filter(Boolean).length).toBe(0);
    expect(t.stats()).toMatchObject({ decisions: 200, taught: 30, recentShare: 0 });
  });

  it('maxShare 1 lifts the bound: every unsure decision is asked', () => {
    const { teacher: t } = teacher({ maxShare: 1 });
    expect(
      asks(
        t,
        Array.from({ length: 50 }, () => at(0.3)),
      ).every(Boolean),
    ).toBe(true);
  });

  it('an answer without probabilities counts as the least confident', () => {
    const { teacher: t } = teacher();
    asks(
      t,
      Array.from({ length: 40 }, () => at(0.3)),
    );
    expect(t.stats().taught).toBeLessThan(30);
    expect(t.shouldAsk(at(0.5))).toBe(false);
    expect(t.shouldAsk({ route: 'a' })).toBe(true);
  });

  it('replicas bound to one store rank against each other’s decisions', () => {
    const store = new InMemoryRouteStateStore();
    const one = teacher().teacher;
    const two = teacher().teacher;
    one.bindRouteState({ store, scope: 'router' });
    two.bindRouteState({ store, scope: 'router' });
    // replica one saw 40 very unsure decisions; replica two has seen none
    asks(
      one,
      Array.from({ length: 40 }, () => at(0.1)),
    );
    // to replica two, 0.5 is not among the least confident of the shared window
    expect(two.shouldAsk(at(0.5))).toBe(false);
    expect(two.shouldAsk(at(0.05))).toBe(true);
    // unbound, a replica with an empty window would have asked
    expect(teacher().teacher.shouldAsk(at(0.5))).toBe(true);
  });

  it('the ranking forgets decisions older than its window (injected clock)', () => {
    const { teacher: t, advance } = teacher({ windowMs: 60_000 });
    asks(
      t,
      Array.from({ length: 25 }, () => at(0.1)),
    );
    expect(t.shouldAsk(at(0.5))).toBe(false);
    advance(120_000);
    // an empty window ranks nothing: the unsure decision is asked (the ring has room)
    expect(t.shouldAsk(at(0.5))).toBe(true);
  });

  it.each([0, -0.1, 1.5, Number.NaN, '0.3'])('rejects maxShare %p naming the field', (bad) => {
    expect(() => new Teacher(judge, { maxShare: bad as number })).toThrow(
      InvalidConfigurationException,
    );
    expect(() => new Teacher(judge, { maxShare: bad as number })).toThrow(/^maxTeacherShare /);
  });
});
