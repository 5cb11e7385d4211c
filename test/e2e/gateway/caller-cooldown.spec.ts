import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FakeProvider } from '../../../src/testing/index.js';
import { postJson, startGatewayOnFake, user, type RunningGateway } from './gateway-harness.js';

const FAKE_KEY = 'fake-key-for-caller-cooldown';

interface HealthBody {
  status: string;
  details: {
    'model-router': {
      routers: Record<string, { models: Record<string, { state: string; lastError?: unknown }> }>;
    };
  };
}

/** Issue 12, point 2: one client could put router `auto` into cooldown for everyone. */
describe('a request naming a provider model id', () => {
  let fake: FakeProvider;
  let gateway: RunningGateway;

  beforeAll(async () => {
    ({ fake, gateway } = await startGatewayOnFake(FAKE_KEY, {
      config: 'test/e2e/gateway/fixtures/caller-cooldown.yaml',
    }));
  });

  afterAll(async () => {
    await gateway.close();
    await fake.close();
  });

  async function health(): Promise<HealthBody> {
    return (await (await fetch(`${gateway.url}/health`)).json()) as HealthBody;
  }

  it('is refused on POST /chat with 400 naming parameters.modelName', async () => {
    const response = await postJson(`${gateway.url}/chat`, {
      messages: [user('hi')],
      parameters: { modelName: 'gpt-4-32k-fault-404' },
    });
    const body = (await response.json()) as { error: { message: string; param: string } };

    expect(response.status).toBe(400);
    expect(body.error.param).toBe('parameters.modelName');
    expect(body.error.message).toContain('cannot choose the provider model id');
    expect(fake.requests.count('gpt-4-32k-fault-404')).toBe(0);
  });

  it('leaves every model of the router serving, with no error of the caller in /health', async () => {
    const { status, details } = await health();
    const models = details['model-router'].routers.auto!.models;

    expect(status).toBe('ok');
    expect(Object.values(models).map((model) => model.state)).toEqual(['available', 'available']);
    expect(JSON.stringify(models)).not.toContain('fault-404');
  });

  it('still lets the next client through to the configured model', async () => {
    const response = await postJson(`${gateway.url}/chat`, { messages: [user('hi')] });
    expect(response.status).toBe(200);
    expect(fake.requests.last('gpt-first')).toBeDefined();
  });
});
