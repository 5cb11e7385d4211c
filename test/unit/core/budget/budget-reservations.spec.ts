import { describe, expect, it } from '@jest/globals';
import { BudgetLedger, type ReserveOutcome } from '../../../../src/core/budget/budget-ledger.js';
import type { BudgetScope } from '../../../../src/core/budget/budget.js';
import { InMemoryRouteStateStore } from '../../../../src/core/state/in-memory-route-state-store.js';
import { recorder } from '../strategies/fakes.js';

const HOUR = 3_600_000;

/** The in-memory store answers at once: a reservation is there without awaiting. */
function reserve(l: BudgetLedger, scope: BudgetScope, usd: number): ReserveOutcome {
  const outcome = l.reserve(scope, usd);
  if (outcome instanceof Promise) throw new Error('the in-memory store answers synchronously');
  return outcome;
}
const NOW = HOUR * 500;

function ledger(budgets = [{ name: 'team', limitUsd: 1, period: '1h' as const, warnAt: 0.5 }]) {
  const clock = { now: NOW };
  const store = new InMemoryRouteStateStore(() => clock.now);
  return { clock, ledger: new BudgetLedger(budgets, { store, clock: () => clock.now }) };
}

describe('BudgetLedger reservations', () => {
  it('holds a worst case until it settles to the real cost', () => {
    const { ledger: l } = ledger();
    const outcome = reserve(l, { model: 'm' }, 0.4);
    expect(outcome.refused).toBeUndefined();
    expect(l.statusOf('team')).toMatchObject({ spentUsd: 0, reservedUsd: 0.4 });
    // spend is what was settled; holds are not spend
    expect(l.report()[0]).toMatchObject({ spentUsd: 0, state: 'ok' });
    void l.settle(outcome.reservation!, 0.1);
    expect(l.statusOf('team')).toEqual(expect.objectContaining({ spentUsd: 0.1 }));
    expect(l.statusOf('team')!.reservedUsd).toBeUndefined();
  });

  it('gives a hold back whole when the call used nothing', () => {
    const { ledger: l } = ledger();
    const { reservation } = reserve(l, { model: 'm' }, 0.4);
    void l.settle(reservation!, undefined);
    expect(l.statusOf('team')).toEqual(expect.objectContaining({ spentUsd: 0 }));
    expect(l.exceeded({ model: 'm' })).toBeUndefined();
  });

  it('admits while the committed total is under the limit, then refuses with what is held', () => {
    const { ledger: l } = ledger();
    const first = reserve(l, { model: 'm' }, 0.7);
    // 0.7 committed < 1: the next call may take the rest and then some, alone
    const second = reserve(l, { model: 'm' }, 0.7);
    expect(first.reservation && second.reservation).toBeTruthy();
    const third = reserve(l, { model: 'm' }, 0.01);
    expect(third.refused).toMatchObject({ spentUsd: 0, reservedUsd: 1.4 });
    expect(l.exceeded({ model: 'm' })).toMatchObject({ reservedUsd: 1.4 });
    void l.settle(first.reservation!, 0.2);
    void l.settle(second.reservation!, 0.2);
    expect(reserve(l, { model: 'm' }, 0.01).refused).toBeUndefined();
  });

  it('takes every budget over the call or none: a refusal gives the others back', () => {
    const { ledger: l } = ledger([
      { name: 'wide', limitUsd: 10, period: '1h' as const },
      { name: 'narrow', scope: { key: 'a' }, limitUsd: 0.5, period: '1h' as const },
    ] as never);
    const held = reserve(l, { model: 'm', key: 'a' }, 0.6);
    expect(held.reservation!.holds.map((h) => h.budget.name)).toEqual(['wide', 'narrow']);
    const refused = reserve(l, { model: 'm', key: 'a' }, 0.6);
    expect(refused.refused!.budget.name).toBe('narrow');
    // only the first call's hold is left on the wide budget
    expect(l.statusOf('wide')!.reservedUsd).toBe(0.6);
    // a call outside the narrow scope still has room
    expect(reserve(l, { model: 'm', key: 'b' }, 0.6).refused).toBeUndefined();
  });

  it('fires warnAt and exceeded on real spend, once, never on a hold', () => {
    const { ledger: l } = ledger();
    const events = recorder();
    const a = reserve(l, { model: 'm' }, 0.9).reservation!;
    const b = reserve(l, { model: 'm' }, 0.9).reservation!;
    expect(events.events).toEqual([]);
    void l.settle(a, 0.6, events.observer);
    void l.settle(b, 0.6, events.observer);
    expect(events.events.map((e) => e.type)).toEqual(['budget-warning', 'budget-exceeded']);
    expect(l.report()[0]).toMatchObject({ spentUsd: 1.2, state: 'exceeded' });
  });

  it('settles into the period it reserved in, even after that period ended', () => {
    const { clock, ledger: l } = ledger();
    const { reservation } = reserve(l, { model: 'm' }, 0.4);
    clock.now += HOUR;
    void l.settle(reservation!, 0.3);
    // the new period starts clean: the late settle went to the old one
    expect(l.statusOf('team')).toEqual(expect.objectContaining({ spentUsd: 0 }));
    clock.now -= HOUR;
    expect(l.statusOf('team')).toEqual(expect.objectContaining({ spentUsd: 0.3 }));
    expect(l.statusOf('team')!.reservedUsd).toBeUndefined();
  });

  it('refuses a reserve cap that is not a whole number of tokens', () => {
    expect(() => new BudgetLedger([], { reserveOutputTokens: 0 })).toThrow(
      'reserveOutputTokens must be a whole number of tokens ≥ 1; got 0.',
    );
  });
});
