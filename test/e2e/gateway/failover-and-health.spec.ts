import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FailoverStrategy } from '../../../src/core/strategies/failover-strategy.js';
import { ModelRouter } from '../../../src/core/group/model-router.js';
import { LocalDemoChatModel } from '../../../src/providers/local/local-demo-chat-model.js';
import {
  ManualClock,
  postJson,
  startGateway,
  user,
  type RunningGateway,
} from './gateway-harness.js';

const SIMPLE_QUESTION = 'What is the capital of France?';

interface ModelHealth {
  state: string;
  cooldownUntil?: string;
  failures: number;
  lastError?: { name: string; message: string };
}

interface HealthBody {
  status: string;
  details: { 'model-router': { routers: Record<string, { models: Record<string, ModelHealth> }> } };
}

async function health(gateway: RunningGateway): Promise<{ status: number; body: HealthBody }> {
  const response = await fetch(`${gateway.url}/health`);
  return { status: response.status, body: (await response.json()) as HealthBody };
}

function modelHealth(body: HealthBody, router: string, model: string): ModelHealth {
  return body.details['model-router'].routers[router]!.models[model]!;
}

describe('config/model-router.yaml: the flaky demo model, failover, cooldown and /health', () => {
  const clock = new ManualClock();
  let gateway: RunningGateway;

  beforeAll(async () => {
    // the configuration `npm start` uses, with no keys in the environment
    gateway = await startGateway({
      config: 'config/model-router.yaml',
      env: {},
      clock: clock.read,
    });
  });

  afterAll(async () => {
    await gateway.close();
  });

  const askSimple = () =>
    gateway.client.chat.completions
      .create({ model: 'auto', messages: [user(SIMPLE_QUESTION)] })
      .withResponse();

  it('is up while every model is available', async () => {
    const { status, body } = await health(gateway);

    expect(status).toBe(200);
    expect(body.status).toBe('ok');
    expect(modelHealth(body, 'auto', 'demo-mini').state).toBe('available');
  });

  it('fails over on the flaky model’s third call and reports it cooling down (degraded, 200)', async () => {
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await askSimple());

    expect(answers.map((a) => a.data.model)).toEqual([
      'demo-mini',
      'demo-mini',
      'demo-mini-backup',
    ]);
    expect(answers[2]!.response.headers.get('x-model-router-model')).toBe('demo-mini-backup');
    expect(answers[2]!.response.headers.get('x-model-router-route')).toBe('simple');

    const { status, body } = await health(gateway);
    expect(status).toBe(200);
    expect(body.status).toBe('degraded');
    const mini = modelHealth(body, 'auto', 'demo-mini');
    expect(mini.state).toBe('cooldown');
    expect(mini.cooldownUntil).toBe(new Date(clock.now + 15_000).toISOString());
    expect(mini.failures).toBe(1);
    expect(mini.lastError?.message).toContain('simulated an outage');
    expect(modelHealth(body, 'auto', 'demo-mini-backup').state).toBe('available');
  });

  it('keeps serving the route from the backup during the cooldown', async () => {
    clock.advance(14_999);
    const { data } = await askSimple();

    expect(data.model).toBe('demo-mini-backup');
  });

  it('lets the flaky model back in when the cooldown is over, and is up again after its probe', async () => {
    clock.advance(1);
    const during = await health(gateway);
    expect(modelHealth(during.body, 'auto', 'demo-mini').state).toBe('half-open');

    const { data } = await askSimple();
    expect(data.model).toBe('demo-mini');

    const after = await health(gateway);
    expect(after.status).toBe(200);
    expect(after.body.status).toBe('ok');
    expect(modelHealth(after.body, 'auto', 'demo-mini').state).toBe('available');
  });
});

/** A demo model that fails every call. */
function broken(name: string): LocalDemoChatModel {
  return new LocalDemoChatModel({ name, failEvery: 1 });
}

describe('every model of a router cooling down', () => {
  const clock = new ManualClock();
  let gateway: RunningGateway;

  beforeAll(async () => {
    gateway = await startGateway({
      clock: clock.read,
      config: {
        module: {
          routers: {
            fragile: new ModelRouter({
              routes: [
                { name: 'broken-a', model: broken('broken-a') },
                { name: 'broken-b', model: broken('broken-b') },
              ],
              routingStrategy: new FailoverStrategy({ cooldownMs: 15_000, halfOpenProbes: 1 }),
            }),
          },
        },
      },
    });
  });

  afterAll(async () => {
    await gateway.close();
  });

  it('answers 503 with Retry-After once every model failed, counting down on the clock', async () => {
    const url = `${gateway.url}/v1/chat/completions`;
    const body = { model: 'fragile', messages: [user('hello')] };

    const failed = await postJson(url, body);
    expect(failed.status).toBe(503);
    expect(failed.headers.get('retry-after')).toBe('15');
    const failure = (await failed.json()) as { error: { code: string; message: string } };
    expect(failure.error.code).toBe('models_cooling_down');
    // the attempts of this call are named, so the client sees why
    expect(failure.error.message).toContain("broken-a: ProviderException: Model 'broken-a'");
    expect(failure.error.message).toContain('broken-b');

    clock.advance(5_000);
    const cooling = await postJson(url, body);
    expect(cooling.status).toBe(503);
    expect(cooling.headers.get('retry-after')).toBe('10');
    const coolingBody = (await cooling.json()) as { error: { code: string; type: string } };
    expect(coolingBody.error).toMatchObject({ code: 'models_cooling_down', type: 'server_error' });
  });

  it('answers 503 with Retry-After for a stream too, before any SSE is sent', async () => {
    const response = await postJson(`${gateway.url}/v1/chat/completions`, {
      model: 'fragile',
      stream: true,
      messages: [user('hello')],
    });

    expect(response.status).toBe(503);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(response.headers.get('retry-after')).toBe('10');
  });

  it('reports the router down with 503 on /health', async () => {
    const { status, body } = await health(gateway);

    expect(status).toBe(503);
    expect(body.status).toBe('error');
    expect(modelHealth(body, 'fragile', 'broken-a').state).toBe('cooldown');
    expect(modelHealth(body, 'fragile', 'broken-b').state).toBe('cooldown');
  });
});
