import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Registry } from 'prom-client';
import { FakeProvider } from '../../../src/testing/index.js';
import { ManualClock, startGateway, type RunningGateway } from './gateway-harness.js';
import { chatBody, KEYS, teamEnv } from './team-support.js';

const FIXTURE = new URL('./fixtures/no-usage.yaml', import.meta.url).pathname;
const ANSWER = 'word '.repeat(80).trim(); // 399 characters: 100 estimated tokens
// 'hello there': 11 characters, 3 estimated tokens
const ESTIMATE = { prompt_tokens: 3, completion_tokens: 100, total_tokens: 103 };

interface WireUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/**
 * An upstream that reports no usage (a self-hosted server, a broken proxy) is counted all the
 * same: the gateway answers, prices and limits the estimate, and says it is one.
 */
describe('a gateway over an upstream without usage', () => {
  const clock = new ManualClock(Date.parse('2030-01-10T10:30:30Z'));
  const lines: string[] = [];
  const registry = new Registry();
  let fake: FakeProvider;
  let gateway: RunningGateway;

  const chat = (body: string, id: string) =>
    fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${KEYS.teamA}`,
        'x-request-id': id,
      },
      body,
    });

  /** The access-log line of a request, once its connection is done with it. */
  async function lineOf(id: string): Promise<Record<string, unknown>> {
    for (let i = 0; i < 50 && !lines.some((line) => line.includes(id)); i++) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    return JSON.parse(lines.find((line) => line.includes(id)) ?? '{}') as Record<string, unknown>;
  }

  beforeAll(async () => {
    fake = await FakeProvider.start({ apiKey: KEYS.upstream });
    fake.setAnswer('gpt-no-usage', { text: ANSWER });
    fake.setAnswer('claude-no-usage', { text: ANSWER });
    gateway = await startGateway({
      config: FIXTURE,
      env: teamEnv(fake, { FAKE_ANTHROPIC_URL: fake.anthropicBaseURL }),
      clock: clock.read,
      accessLog: { write: (line) => lines.push(line), json: true },
      metricsRegistry: registry,
    });
  });

  afterAll(async () => {
    await gateway.close();
    await fake.close();
  });

  it('answers with the estimate, priced in x-model-router-cost, marked in the log and metrics', async () => {
    const response = await chat(chatBody('auto'), 'req-estimated-1');
    expect(response.status).toBe(200);
    const body = (await response.json()) as { usage: WireUsage };
    expect(body.usage).toMatchObject(ESTIMATE);
    // a micro-dollar a token
    expect(response.headers.get('x-model-router-cost')).toBe('0.000103');
    expect(await lineOf('req-estimated-1')).toMatchObject({
      tokens: { input: 3, output: 100, total: 103, estimated: true },
    });
    const estimated = await registry.getSingleMetric('model_router_estimated_usage_total')?.get();
    expect(estimated?.values.find((v) => v.labels.model === 'quiet')?.value).toBe(1);
  });

  it('counts streamed estimates in the key’s tpm window, which then refuses the key', async () => {
    clock.advance(60_000); // a new minute: the window starts empty
    const statuses: number[] = [];
    let refusal = '';
    let usage: WireUsage | undefined;
    for (let i = 0; i < 11; i++) {
      const response = await chat(
        chatBody('auto', { stream: true, stream_options: { include_usage: true } }),
        `req-stream-${i}`,
      );
      statuses.push(response.status);
      const text = await response.text();
      if (response.status === 429) refusal = text;
      const chunk = text.split('\n').find((line) => line.includes('"usage":{'));
      if (chunk) usage = (JSON.parse(chunk.slice('data: '.length)) as { usage: WireUsage }).usage;
      // the key's tokens are settled when the call ends: its log line says it has
      await lineOf(`req-stream-${i}`);
    }
    expect(usage).toMatchObject(ESTIMATE);
    // 103 tokens each: ten fill the 1,000 of the minute, and the eleventh is refused
    expect(statuses.slice(0, 10)).toEqual(Array.from({ length: 10 }, () => 200));
    expect(statuses[10]).toBe(429);
    expect(refusal).toMatch(/token/i);
    // the first test's call and these ten: the refused one never reached the upstream
    expect(fake.requests.count('gpt-no-usage')).toBe(11);
  });

  it.each([false, true])(
    'an Anthropic upstream without usage, on /v1/messages (streamed: %s), is priced the same',
    async (stream) => {
      clock.advance(60_000); // the window the last test filled is over
      const response = await fetch(`${gateway.url}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': KEYS.teamA },
        body: JSON.stringify({
          model: 'claude',
          max_tokens: 200,
          stream,
          messages: [{ role: 'user', content: 'hello there' }],
        }),
      });
      expect(response.status).toBe(200);
      const text = await response.text();
      expect(fake.requests.last()!.body).toMatchObject({ model: 'claude-no-usage', stream });
      if (!stream) {
        expect(JSON.parse(text)).toMatchObject({ usage: { input_tokens: 3, output_tokens: 100 } });
        expect(response.headers.get('x-model-router-cost')).toBe('0.000103');
        return;
      }
      const delta = text.split('\n').find((line) => line.includes('"message_delta"'));
      expect(JSON.parse(delta!.slice('data: '.length))).toMatchObject({
        usage: { output_tokens: 100 },
      });
    },
  );
});
