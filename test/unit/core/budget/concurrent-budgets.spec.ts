import { describe, expect, it } from '@jest/globals';
import { InMemoryRouteStateStore } from '../../../../src/core/state/in-memory-route-state-store.js';
import {
  answerCost,
  BUDGET_USD,
  budgetedReplica,
  CHEAP,
  clock,
  concurrentCalls,
  PRICEY,
  worstCase,
} from '../../../support/budget-scenario.js';

/** Lets the settles that calls do not wait for land. */
const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('a budget under concurrency, in memory (issue 24, point 1)', () => {
  it('200 concurrent calls spend at most the limit plus one call’s worst case', async () => {
    const replica = budgetedReplica(new InMemoryRouteStateStore(clock));
    const { answered, refused, other } = await concurrentCalls([replica], 200);
    await settled();
    const spent = replica.ledger.spentUsd('team');
    expect(other).toEqual([]);
    expect(answered + refused).toBe(200);
    expect(answered).toBeGreaterThan(0);
    expect(spent).toBeCloseTo(answered * answerCost(CHEAP), 9);
    expect(spent).toBeLessThanOrEqual(BUDGET_USD + worstCase(CHEAP));
    // nothing stays held once every call ended
    expect(replica.ledger.statusOf('team')!.reservedUsd).toBeUndefined();
  });

  it('holds when every call fails over to a model ten times pricier', async () => {
    const replica = budgetedReplica(new InMemoryRouteStateStore(clock), true);
    const { answered, refused, other } = await concurrentCalls([replica], 200);
    await settled();
    const spent = replica.ledger.spentUsd('team');
    expect(other).toEqual([]);
    expect(answered + refused).toBe(200);
    expect(answered).toBeGreaterThan(0);
    expect(spent).toBeCloseTo(answered * answerCost(PRICEY), 9);
    expect(spent).toBeLessThanOrEqual(BUDGET_USD + worstCase(PRICEY));
  });

  it('a refusal while calls in progress hold the budget says so, and asks for a short wait', async () => {
    const replica = budgetedReplica(new InMemoryRouteStateStore(clock));
    const calls = Array.from({ length: 30 }, () =>
      replica.router.chat({ messages: [{ role: 'user', content: 'how much is it' }] }).then(
        () => undefined,
        (error: unknown) => error as Error & { retryAfterMs?: number; reservedUsd?: number },
      ),
    );
    const errors = (await Promise.all(calls)).filter((e) => e !== undefined);
    expect(errors.length).toBeGreaterThan(0);
    const held = errors[0]!;
    expect(held.message).toContain("Budget 'team' is held by calls in progress");
    expect(held.retryAfterMs).toBe(1000);
    expect(held.reservedUsd).toBeGreaterThan(0);
  });
});
