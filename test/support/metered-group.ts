import type { ChatModel } from '../../src/core/chat/chat-model.js';
import { BudgetLedger } from '../../src/core/budget/budget-ledger.js';
import { MODEL_PROFILE, type ModelProfile } from '../../src/core/cost/model-profile.js';
import { ModelRouter } from '../../src/core/group/model-router.js';
import { countersOf } from '../../src/core/state/counter-store.js';
import { InMemoryRouteStateStore } from '../../src/core/state/in-memory-route-state-store.js';
import { FailoverStrategy } from '../../src/core/strategies/failover-strategy.js';
import { manualClock } from '../unit/core/strategies/fakes.js';

/**
 * One model `m` in a group under a 100 USD hourly budget, bound to an in-memory store on a manual
 * clock starting at `startMs`: what the group charged, read back as tokens (`spentTokens`, for a
 * profile priced at a micro-dollar a token) and as the model's tpm window (`tpm`).
 */
export function meteredGroup(model: ChatModel, profile: ModelProfile, startMs: number) {
  const clock = manualClock(startMs);
  const store = new InMemoryRouteStateStore(clock.fn);
  const ledger = new BudgetLedger([{ name: 'all', limitUsd: 100, period: '1h' }], {
    store,
    clock: clock.fn,
  });
  const router = new ModelRouter({
    routes: [{ name: 'm', model, metadata: [[MODEL_PROFILE, profile]] } as never],
    routingStrategy: new FailoverStrategy({ clock: clock.fn }),
    budgets: ledger,
  });
  router.bindRouteState({ store, scope: 'g', clock: clock.fn });
  const tpm = () =>
    countersOf(store).getWindow('limits:m:tpm', { windowMs: 60_000, now: clock.fn() });
  const spentTokens = () => Math.round(ledger.spentUsd('all') * 1e6);
  return { router, clock, tpm, spentTokens };
}
