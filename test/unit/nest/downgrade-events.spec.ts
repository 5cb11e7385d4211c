import { describe, expect, it } from '@jest/globals';
import {
  BudgetDowngradedEvent,
  MODEL_ROUTER_COST_EVENTS,
  mapCostEvent,
} from '../../../src/nest/events/cost-events.js';

describe('budget-downgraded as a Nest event', () => {
  it('maps to model-router.budget.downgraded with budget, from and to', () => {
    const mapped = mapCostEvent(
      { type: 'budget-downgraded', budget: 'big-hourly', from: 'main', to: 'cheap' },
      'main',
    );
    expect(mapped?.name).toBe(MODEL_ROUTER_COST_EVENTS.BUDGET_DOWNGRADED);
    expect(mapped?.payload).toBeInstanceOf(BudgetDowngradedEvent);
    expect(mapped?.payload).toMatchObject({
      router: 'main',
      budget: 'big-hourly',
      from: 'main',
      to: 'cheap',
    });
  });
});
