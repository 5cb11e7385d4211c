import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import * as prom from 'prom-client';
import { ModelRouterMetrics } from '../../../../src/nest/metrics/model-router-metrics.js';

describe('hedge metrics', () => {
  it('counts hedges fired and who won, per router and route', async () => {
    const registry = new prom.Registry();
    const metrics = new ModelRouterMetrics(prom, { registry });
    metrics.recordEvent('main', 'simple', {
      type: 'hedge-fired',
      model: 'a',
      to: 'b',
      afterMs: 40,
    });
    metrics.recordEvent('main', 'simple', {
      type: 'hedge-won',
      winner: 'b',
      loser: 'a',
      hedge: true,
    });
    const text = await registry.metrics();
    expect(text).toContain(
      'model_router_hedges_total{router="main",route="simple",outcome="fired"} 1',
    );
    expect(text).toContain(
      'model_router_hedges_total{router="main",route="simple",outcome="won-by-hedge"} 1',
    );
    metrics.unregister();
  });
});
