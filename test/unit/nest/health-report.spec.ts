import { describe, expect, it } from '@jest/globals';
import type { ModelStatus } from '../../../src/core/inspection/inspection.js';
import { InMemoryRouteStateStore } from '../../../src/core/state/in-memory-route-state-store.js';
import type { RouteStateStore } from '../../../src/core/state/route-state-store.js';
import { buildHealthReport } from '../../../src/nest/health/health-report.js';

const store = new InMemoryRouteStateStore();
const UNTIL = Date.UTC(2030, 5, 1, 8, 30);

function status(model: string, fields: Partial<ModelStatus> = {}): ModelStatus {
  return { model, state: 'available', failures: 0, ...fields };
}

describe('buildHealthReport', () => {
  it('is up when nothing cools down; half-open models are serving again', () => {
    const report = buildHealthReport(
      [
        {
          router: 'r',
          inspectable: true,
          models: [status('a'), status('b', { state: 'half-open', failures: 3 })],
        },
      ],
      store,
    );
    expect(report.status).toBe('up');
    expect(report.routers.r).toEqual({
      status: 'up',
      models: { a: { state: 'available', failures: 0 }, b: { state: 'half-open', failures: 3 } },
    });
  });

  it('is degraded while some models cool down, down when one router has none left', () => {
    const cooling = status('a', {
      state: 'cooldown',
      cooldownUntil: UNTIL,
      failures: 2,
      tokens: 120,
      lastError: { name: 'ProviderException', message: 'HTTP 401 for key sk-abcdefghijklmnop' },
    });
    const degraded = buildHealthReport(
      [{ router: 'r', inspectable: true, models: [cooling, status('b')] }],
      store,
    );
    expect(degraded.status).toBe('degraded');
    expect(degraded.routers.r!.models.a).toEqual({
      state: 'cooldown',
      cooldownUntil: '2030-06-01T08:30:00.000Z',
      failures: 2,
      tokens: 120,
      lastError: { name: 'ProviderException', message: 'HTTP 401 for key sk-***' },
    });

    const down = buildHealthReport(
      [
        { router: 'r', inspectable: true, models: [cooling] },
        { router: 'ok', inspectable: true, models: [status('c')] },
      ],
      store,
    );
    expect(down.status).toBe('down');
    expect(down.routers.r!.status).toBe('down');
    expect(down.routers.ok!.status).toBe('up');
  });

  it('names the routes that have nothing left while the router still serves others', () => {
    const report = buildHealthReport(
      [
        {
          router: 'r',
          inspectable: true,
          models: [
            status('a', { route: 'simple' }),
            status('b', { route: 'complex', state: 'cooldown', cooldownUntil: UNTIL }),
          ],
        },
      ],
      store,
    );
    expect(report.routers.r).toMatchObject({ status: 'degraded', unavailableRoutes: ['complex'] });
  });

  it('keys a model serving several routes by route/model', () => {
    const report = buildHealthReport(
      [
        {
          router: 'r',
          inspectable: true,
          models: [
            status('shared', { route: 'simple' }),
            status('shared', { route: 'complex' }),
            status('solo', { route: 'complex' }),
          ],
        },
      ],
      store,
    );
    expect(Object.keys(report.routers.r!.models)).toEqual([
      'simple/shared',
      'complex/shared',
      'solo',
    ]);
  });

  it('reports a router that cannot be inspected as up', () => {
    const report = buildHealthReport([{ router: 'plain', inspectable: false, models: [] }], store);
    expect(report.routers.plain).toEqual({ status: 'up', models: {}, inspectable: false });
  });

  it('lists the model of a router that is one plain model, up', () => {
    const report = buildHealthReport(
      [
        {
          router: 'solo',
          inspectable: false,
          models: [{ model: 'claude', state: 'available', failures: 0 }],
        },
      ],
      store,
    );
    expect(report.routers.solo).toEqual({
      status: 'up',
      models: { claude: { state: 'available', failures: 0 } },
      inspectable: false,
    });
  });

  it('shows a shared store, and degrades while it serves from local state only', () => {
    let shared = true;
    const redisLike = {
      isShared: () => shared,
      describe: () => ({
        type: 'redis',
        url: 'redis://:hunter2@cache.local:6379',
        keyPrefix: 'mr:',
        status: shared ? 'shared' : 'local-only',
      }),
    } as unknown as RouteStateStore;
    const up = buildHealthReport([], redisLike);
    expect(up.stateStore).toEqual({
      type: 'redis',
      url: 'redis://***@cache.local:6379',
      keyPrefix: 'mr:',
      shared: true,
      status: 'up',
    });
    expect(up.status).toBe('up');

    shared = false;
    const local = buildHealthReport([], redisLike);
    expect(local.stateStore).toMatchObject({ shared: false, status: 'degraded' });
    expect(local.status).toBe('degraded');
  });
});
