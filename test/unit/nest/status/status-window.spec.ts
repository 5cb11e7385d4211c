import { describe, expect, it } from '@jest/globals';
import { InMemoryRouteStateStore } from '../../../../src/core/state/in-memory-route-state-store.js';
import { ModelRouterStatus } from '../../../../src/nest/status/model-router-status.js';
import { buildStatusReport } from '../../../../src/nest/status/status-report.js';
import { StatusWindow } from '../../../../src/nest/status/status-window.js';
import type { ModelRouterRegistry } from '../../../../src/nest/module/model-router-registry.js';

const key = { router: 'main', route: 'simple', model: 'mini' };

function windowAt(start = 1_000_000) {
  const clock = { now: start };
  return { clock, window: new StatusWindow(() => clock.now, 60_000) };
}

describe('StatusWindow', () => {
  it('counts attempts and errors, with nearest-rank percentiles, over the window only', () => {
    const { clock, window } = windowAt();
    for (let ms = 1; ms <= 100; ms++)
      window.recordAttempt(key, { latencyMs: ms, ok: ms % 10 !== 0 });
    const figures = window.figures(key);
    expect(figures).toMatchObject({ requests: 100, errors: 10, rpm: 100 });
    expect(figures.latencyMs).toEqual({ p50: 50, p95: 95 });
    expect(figures.firstTokenMs).toEqual({ p50: null, p95: null });
    clock.now += 60_001;
    expect(window.figures(key)).toMatchObject({ requests: 0, errors: 0, latencyMs: { p50: null } });
  });

  it('keeps at most 1,000 samples a model and 50 failovers', () => {
    const { window } = windowAt();
    for (let i = 0; i < 1500; i++) window.recordAttempt(key, { latencyMs: i, ok: true });
    expect(window.figures(key).requests).toBe(1000);
    expect(window.figures(key).latencyMs.p50).toBe(999);
    for (let i = 0; i < 80; i++) {
      window.recordFailover({ router: 'main', from: `m${i}`, to: 'b', reason: 'x' });
    }
    const failovers = window.recentFailovers();
    expect(failovers).toHaveLength(50);
    // newest first
    expect(failovers[0]!.from).toBe('m79');
  });

  it('scrubs and bounds the last error', () => {
    const { window } = windowAt();
    window.recordError(key, {
      name: 'ProviderException',
      message: `401: Incorrect API key provided: sk-abcdefghijklmnop ${'x'.repeat(1000)}`,
    });
    const { lastError } = window.figures(key);
    expect(lastError!.message).not.toContain('sk-abcdefghijklmnop');
    expect(lastError!.message.length).toBeLessThanOrEqual(300);
  });

  it('splits decisions by route over the window', () => {
    const { window } = windowAt();
    for (const route of ['simple', 'simple', 'simple', 'complex'])
      window.recordDecision('main', route);
    expect(window.decisionSplit('main')).toEqual([
      { route: 'simple', calls: 3, share: 0.75 },
      { route: 'complex', calls: 1, share: 0.25 },
    ]);
  });
});

describe('the status report', () => {
  const store = new InMemoryRouteStateStore();

  it('maps health states to circuit states, with the next probe and the redaction applied', () => {
    const { window } = windowAt();
    const report = buildStatusReport({
      inspections: [
        {
          router: 'main',
          inspectable: true,
          models: [
            {
              model: 'mini',
              route: 'simple',
              state: 'cooldown',
              cooldownUntil: 1_060_000,
              failures: 2,
              lastError: { name: 'ProviderException', message: 'HTTP 503 from host-secret-1' },
            },
            { model: 'big', route: 'simple', state: 'half-open', failures: 1 },
            {
              model: 'alone',
              route: 'complex',
              state: 'available',
              failures: 0,
              limits: { rpm: { used: 3, limit: 10 } },
            },
          ],
        },
      ],
      budgets: [],
      store,
      window,
      replica: 'r1',
      redact: (text) => text.replaceAll('host-secret-1', '[REDACTED]'),
    });
    const [router] = report.routers;
    expect(router!.status).toBe('degraded');
    expect(router!.routes.map((route) => route.name)).toEqual(['simple', 'complex']);
    const [mini, big] = router!.routes[0]!.models;
    expect(mini).toMatchObject({
      state: 'open',
      cooldownUntil: new Date(1_060_000).toISOString(),
      nextProbeAt: new Date(1_060_000).toISOString(),
      lastError: { type: 'ProviderException', message: 'HTTP 503 from [REDACTED]' },
    });
    expect(big!.state).toBe('half-open');
    expect(router!.routes[1]!.models[0]!.limits).toEqual({ rpm: { used: 3, limit: 10 } });
    expect(report.sources).toEqual({ circuits: 'replica', budgets: 'replica', traffic: 'replica' });
    expect(report.window).toEqual({ ms: 60_000, replica: 'r1' });
  });

  it('adds sections by name, refuses a taken name, and survives a section that throws', () => {
    const { window } = windowAt();
    const registry = {
      inspect: () => [],
      budgets: { report: () => [] },
      stateStore: store,
    } as unknown as ModelRouterRegistry;
    const status = new ModelRouterStatus(registry, window, {
      sections: [{ name: 'cache', collect: () => ({ hitRate: 0.5 }) }],
    });
    status.addSection({
      name: 'broken',
      collect: () => {
        throw new TypeError('no');
      },
    });
    expect(() => status.addSection({ name: 'routers', collect: () => 1 })).toThrow(/taken/);
    expect(() => status.addSection({ name: 'cache', collect: () => 1 })).toThrow(/taken/);
    const report = status.report();
    expect(report.cache).toEqual({ hitRate: 0.5 });
    expect(report.broken).toEqual({ error: 'TypeError' });
  });
});
