import { describe, it, expect } from '@jest/globals';
import type { ScoredAnswer } from '../../../../src/core/decision/answer-scoring.js';
import { Teacher } from '../../../../src/core/decision/teacher.js';
import { InvalidConfigurationException } from '../../../../src/core/errors/exceptions.js';

const judge = { decide: async () => ({ value: 'a' }) };
const at = (p: number): ScoredAnswer => ({ route: 'a', probabilities: { a: p, b: 1 - p } });

function teacher(options: ConstructorParameters<typeof Teacher>[1] = {}) {
  return { teacher: new Teacher(judge, options) };
}

/** How many of `answers` the teacher is asked about, in order. */
function asks(t: Teacher, answers: readonly ScoredAnswer[]): boolean[] {
  return answers.map((answer) => t.shouldAsk(answer));
}

describe('Teacher: a share budget over the last 100 decisions', () => {
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

  it('spends the budget on unsure decisions as they come, and frees it as they age out', () => {
    const { teacher: t } = teacher({ maxShare: 0.3 });
    const first = asks(
      t,
      Array.from({ length: 100 }, (_, i) => at(i < 50 ? 0.3 : 0.9)),
    );
    // the first 30 unsure decisions take the whole budget; confident ones are never asked
    expect(first.slice(0, 30).every(Boolean)).toBe(true);
    expect(first.slice(30).some(Boolean)).toBe(false);
    expect(t.stats()).toMatchObject({ taught: 30, deferred: 20 });
    // once the 30 asks are more than 100 decisions old, unsure decisions are asked again
    expect(t.shouldAsk(at(0.3))).toBe(true);
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

  it('an answer without probabilities counts as unsure', () => {
    const { teacher: t } = teacher({ teachBelow: 0.2 });
    expect(t.shouldAsk(at(0.5))).toBe(false);
    expect(t.shouldAsk({ route: 'a' })).toBe(true);
  });

  it.each([0, -0.1, 1.5, Number.NaN, '0.3'])('rejects maxShare %p naming the field', (bad) => {
    expect(() => new Teacher(judge, { maxShare: bad as number })).toThrow(
      InvalidConfigurationException,
    );
    expect(() => new Teacher(judge, { maxShare: bad as number })).toThrow(/^maxTeacherShare /);
  });
});
