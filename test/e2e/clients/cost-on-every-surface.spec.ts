import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FakeProvider } from '../../../src/testing/index.js';
import { postJson, startGatewayOnFake, type RunningGateway } from '../gateway/gateway-harness.js';

const KEY = 'sk-fake-cost-surfaces';

/** The same cost accounting as chat completions on the Responses and Messages surfaces. */
describe('cost on /v1/responses and /v1/messages', () => {
  let fake: FakeProvider;
  let gateway: RunningGateway;

  beforeAll(async () => {
    ({ fake, gateway } = await startGatewayOnFake(KEY, {
      config: 'test/e2e/gateway/fixtures/cost-and-limits.yaml',
    }));
  });

  afterAll(async () => {
    await gateway.close();
    await fake.close();
  });

  it('a priced model: x-model-router-cost on both, usage.cost on a response (plain and streamed)', async () => {
    const plain = await postJson(`${gateway.url}/v1/responses`, {
      model: 'priced',
      input: 'hello there',
    });
    // 2 prompt tokens × 100 + 6 completion tokens × 200, per million, as on chat completions
    expect(plain.headers.get('x-model-router-cost')).toBe('0.0014');
    expect(((await plain.json()) as { usage: { cost: number } }).usage.cost).toBe(0.0014);

    const streamed = await postJson(`${gateway.url}/v1/responses`, {
      model: 'priced',
      input: 'hello there',
      stream: true,
    });
    const last = (await streamed.text()).trim().split('\n').at(-1)!;
    const completed = JSON.parse(last.slice('data: '.length)) as {
      type: string;
      response: { usage: { cost: number } };
    };
    expect(completed.type).toBe('response.completed');
    expect(completed.response.usage.cost).toBe(0.0014);

    const message = await postJson(`${gateway.url}/v1/messages`, {
      model: 'priced',
      max_tokens: 50,
      messages: [{ role: 'user', content: 'hello there' }],
    });
    expect(message.headers.get('x-model-router-cost')).toBe('0.0014');
  });

  it('an unpriced model: no cost header', async () => {
    const response = await postJson(`${gateway.url}/v1/responses`, { model: 'free', input: 'hi' });
    expect(response.headers.get('x-model-router-cost')).toBeNull();
  });
});
