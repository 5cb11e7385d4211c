import 'reflect-metadata';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { COOLDOWN_MS, type RoutingApp, startRoutingApp } from './support/routing-app.js';

const ask = (text: string) => ({ messages: [{ role: 'user', content: text }] });

describe('GET /health over HTTP before, during and after a cooldown (injected clock)', () => {
  let subject: RoutingApp;

  beforeEach(async () => {
    subject = await startRoutingApp('express');
  });

  afterEach(async () => {
    await subject.close();
  });

  it('reports up, then degraded with the cooling model, then up again when the cooldown ends', async () => {
    const before = await request(subject.url).get('/health').expect(200);
    expect(before.body.status).toBe('ok');
    expect(before.body.details['model-router']).toMatchObject({
      status: 'up',
      routers: {
        support: {
          status: 'up',
          models: {
            primary: { state: 'available', failures: 0, route: 'simple' },
            backup: { state: 'available', failures: 0, route: 'simple' },
            deep: { state: 'available', failures: 0, route: 'complex' },
          },
        },
        sales: { status: 'up', models: { seller: { state: 'available', failures: 0 } } },
      },
      stateStore: { status: 'up', shared: false, type: 'in-memory' },
    });

    // the primary fails: the call is served by the backup and the primary cools down
    subject.models.primary.failing = true;
    const failedAt = subject.clock.now;
    const served = await request(subject.url).post('/chat').send(ask('hello')).expect(201);
    expect(served.body.text).toBe('backup: hello');
    expect(served.headers['x-model-router-route']).toBe('simple');
    expect(served.headers['x-model-router-model']).toBe('backup');

    subject.clock.now = failedAt + COOLDOWN_MS - 1;
    const during = await request(subject.url).get('/health').expect(200);
    expect(during.body.status).toBe('degraded');
    const routerHealth = during.body.details['model-router'];
    expect(routerHealth.status).toBe('degraded');
    expect(routerHealth.routers.support.status).toBe('degraded');
    expect(routerHealth.routers.support.models.primary).toEqual({
      state: 'cooldown',
      route: 'simple',
      cooldownUntil: new Date(failedAt + COOLDOWN_MS).toISOString(),
      failures: 1,
      lastError: {
        name: 'UpstreamUnavailable',
        message: 'primary answered 503 Service Unavailable (api_key=***)',
      },
    });
    expect(routerHealth.routers.support.models.backup.state).toBe('available');
    expect(JSON.stringify(during.body)).not.toContain('sk-secret');

    // while cooling down, the primary is skipped
    subject.models.primary.failing = false;
    const skipped = await request(subject.url).post('/chat').send(ask('again')).expect(201);
    expect(skipped.body.text).toBe('backup: again');
    expect(subject.models.primary.calls).toBe(1);

    subject.clock.now = failedAt + COOLDOWN_MS;
    const after = await request(subject.url).get('/health').expect(200);
    expect(after.body.status).toBe('ok');
    expect(after.body.details['model-router'].status).toBe('up');
    expect(after.body.details['model-router'].routers.support.models.primary.state).not.toBe(
      'cooldown',
    );
    expect(after.body.details['model-router'].routers.support.models.primary.cooldownUntil).toBe(
      undefined,
    );

    // the health check noticed the end of the cooldown: listeners hear it once
    const ended = subject.events.events.filter((event) => event.name === 'CooldownEndedEvent');
    expect(ended.map((event) => event.payload)).toEqual([
      expect.objectContaining({ router: 'support', route: 'simple', model: 'primary' }),
    ]);

    // and the primary serves again
    const back = await request(subject.url).post('/chat').send(ask('back?')).expect(201);
    expect(back.body.text).toBe('primary: back?');
    expect(back.headers['x-model-router-model']).toBe('primary');
    expect(subject.events.names().filter((name) => name === 'CooldownEndedEvent')).toHaveLength(1);
  });

  it('answers 503 with the router down when a router has no model left', async () => {
    subject.models.seller.failing = true;
    const failed = await request(subject.url).post('/sales').send(ask('buy')).expect(503);
    expect(failed.body).toMatchObject({ statusCode: 503, error: 'NoMatchingModelFoundException' });
    // while the only model cools down, the answer says when to come back
    subject.clock.now += 15_000;
    const cooling = await request(subject.url).post('/sales').send(ask('buy')).expect(503);
    expect(cooling.headers['retry-after']).toBe(String((COOLDOWN_MS - 15_000) / 1000));
    expect(subject.models.seller.calls).toBe(1);

    const response = await request(subject.url).get('/health').expect(503);
    expect(response.body.status).toBe('error');
    expect(response.body.error['model-router'].status).toBe('down');
    expect(response.body.details['model-router'].routers).toMatchObject({
      sales: { status: 'down', models: { seller: { state: 'cooldown', failures: 1 } } },
      support: { status: 'up' },
    });
  });

  it('keeps a router with one exhausted route degraded, naming the route', async () => {
    subject.models.deep.failing = true;
    await request(subject.url).post('/chat').send(ask('design a system')).expect(503);

    const response = await request(subject.url).get('/health').expect(200);
    expect(response.body.status).toBe('degraded');
    expect(response.body.details['model-router'].routers.support).toMatchObject({
      status: 'degraded',
      unavailableRoutes: ['complex'],
      models: { deep: { state: 'cooldown', route: 'complex' } },
    });
  });

  it('emits the failure, failover and cooldown events of a hidden failure, with the ISO cooldown end', async () => {
    subject.models.primary.failing = true;
    const failedAt = subject.clock.now;
    await request(subject.url).post('/chat').send(ask('hello')).expect(201);

    expect(subject.events.names()).toEqual([
      'RouteSelectedEvent',
      'RouteFailedEvent',
      'CooldownStartedEvent',
      'FailoverEvent',
    ]);
    const [selected, failed, cooldown, failover] = subject.events.events.map(
      (event) => event.payload,
    );
    expect(selected).toMatchObject({ router: 'support', route: 'simple', isDefaultRoute: true });
    expect(failed).toMatchObject({
      router: 'support',
      route: 'simple',
      model: 'primary',
      attempt: 1,
      error: {
        name: 'UpstreamUnavailable',
        message: 'primary answered 503 Service Unavailable (api_key=***)',
      },
    });
    expect(cooldown).toMatchObject({
      router: 'support',
      route: 'simple',
      model: 'primary',
      cooldownUntil: new Date(failedAt + COOLDOWN_MS).toISOString(),
    });
    expect(failover).toMatchObject({
      router: 'support',
      route: 'simple',
      from: 'primary',
      to: 'backup',
      attempt: 2,
    });
  });

  it('reports the decision probabilities in the route-selected event', async () => {
    await request(subject.url).post('/chat').send(ask('design a cache')).expect(201);
    expect(subject.events.events[0].payload).toMatchObject({
      router: 'support',
      route: 'complex',
      isDefaultRoute: false,
      probabilities: { complex: 0.9, simple: 0.1 },
    });
  });
});
