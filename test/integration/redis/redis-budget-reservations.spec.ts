import { describe, expect, it } from '@jest/globals';
import {
  answerCost,
  BUDGET_USD,
  budgetedReplica,
  CHEAP,
  clock,
  concurrentCalls,
  PRICEY,
  worstCase,
} from '../../support/budget-scenario.js';
import { useRedisStores, waitFor } from './redis-fixtures.js';

const env = useRedisStores();

/** Two replicas' groups, each on its own store over one redis-server (issue 24, point 1). */
async function twoReplicas(failover: boolean) {
  const stores = [await env.stores.open({ clock }), await env.stores.open({ clock })];
  return stores.map((store) => budgetedReplica(store, failover));
}

/** Both replicas agree on the spend once their settles landed in Redis. */
async function agreedSpend(replicas: Awaited<ReturnType<typeof twoReplicas>>, expected: number) {
  await waitFor('both replicas to see every settle', () =>
    replicas.every((r) => Math.abs(r.ledger.spentUsd('team') - expected) < 1e-9),
  );
  return replicas[0]!.ledger.spentUsd('team');
}

describe('a budget shared through Redis under concurrency', () => {
  it('200 concurrent calls on two replicas spend at most the limit plus one worst case', async () => {
    const replicas = await twoReplicas(false);
    const { answered, refused, other } = await concurrentCalls(replicas, 200);
    expect(other).toEqual([]);
    expect(answered + refused).toBe(200);
    expect(answered).toBeGreaterThan(0);
    const spent = await agreedSpend(replicas, answered * answerCost(CHEAP));
    expect(spent).toBeLessThanOrEqual(BUDGET_USD + worstCase(CHEAP));
    expect(replicas[0]!.served.count + replicas[1]!.served.count).toBe(answered);
    await waitFor('every hold given back', () =>
      replicas.every((r) => r.ledger.statusOf('team')!.reservedUsd === undefined),
    );
  });

  it('holds when every call fails over to a pricier model, on two replicas', async () => {
    const replicas = await twoReplicas(true);
    const { answered, refused, other } = await concurrentCalls(replicas, 200);
    expect(other).toEqual([]);
    expect(answered + refused).toBe(200);
    expect(answered).toBeGreaterThan(0);
    const spent = await agreedSpend(replicas, answered * answerCost(PRICEY));
    expect(spent).toBeLessThanOrEqual(BUDGET_USD + worstCase(PRICEY));
  });
});
