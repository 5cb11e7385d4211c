import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FakeProvider } from '../../../src/testing/index.js';
import { postJson, startGatewayOnFake, user, type RunningGateway } from './gateway-harness.js';

const KEY = 'sk-fake-first-usage-0123456789';

interface MessageEvent {
  type: string;
  message?: { model: string; usage: { input_tokens: number } };
  usage?: { input_tokens: number };
}

/** The `data:` of each named SSE event (`event: …\ndata: …`). */
const dataOf = (text: string): MessageEvent[] =>
  text
    .split('\n\n')
    .map((block) => block.split('\n').find((line) => line.startsWith('data: ')))
    .filter((line): line is string => line !== undefined)
    .map((line) => JSON.parse(line.slice('data: '.length)) as MessageEvent);

/** LangChain's ChatAnthropic reads input tokens only from message_start. */
describe('input tokens in /v1/messages message_start', () => {
  let fake: FakeProvider;
  let gateway: RunningGateway;
  const stream = async (model: string) => {
    const response = await postJson(`${gateway.url}/v1/messages`, {
      model,
      max_tokens: 64,
      stream: true,
      messages: [user('Name three colours of the rainbow, please.')],
    });
    expect(response.status).toBe(200);
    const events = dataOf(await response.text());
    return { response, events, first: events[0]!, delta: events.find((e) => e.usage)! };
  };

  beforeAll(async () => {
    ({ fake, gateway } = await startGatewayOnFake(KEY, {
      config: 'test/e2e/gateway/fixtures/request-parameters.yaml',
    }));
  });

  afterAll(async () => {
    await gateway.close();
    await fake.close();
  });

  it('carries them when the upstream is Anthropic, equal to the final count', async () => {
    const { first, delta } = await stream('anthropic');
    expect(first.type).toBe('message_start');
    expect(first.message!.usage.input_tokens).toBeGreaterThan(0);
    expect(first.message!.usage.input_tokens).toBe(delta.usage!.input_tokens);
  });

  it('says 0 when the upstream is OpenAI-compatible, which tells them at the end only', async () => {
    const { first, delta } = await stream('openai');
    expect(first.message!.usage.input_tokens).toBe(0);
    expect(delta.usage!.input_tokens).toBeGreaterThan(0);
  });

  it('still fails over when the upstream told them and then failed before any output', async () => {
    const before = fake.requests.all().length;
    const { response, first } = await stream('claude-then-fake');
    expect(response.headers.get('x-model-router-model')).toBe('fake-mini');
    expect(first.message!.model).toBe('fake-mini');
    // the failed attempt's count is not the served one's
    expect(first.message!.usage.input_tokens).toBe(0);
    expect(
      fake.requests
        .all()
        .slice(before)
        .map((request) => request.model),
    ).toEqual(['claude-fault-error-after-0', 'gpt-4o-mini']);
  });
});
