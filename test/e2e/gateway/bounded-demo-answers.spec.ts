import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { demoGatewayConfig } from '../../../apps/gateway/src/config/demo-config.js';
import { postJson, startGateway, user, type RunningGateway } from './gateway-harness.js';

let gateway: RunningGateway;

beforeAll(async () => {
  gateway = await startGateway({ config: demoGatewayConfig({ tokenDelayMs: 0, failEvery: 0 }) });
});

afterAll(() => gateway.close());

const MB = 1024 * 1024;

const stringProperties = (count: number) => ({
  type: 'object',
  properties: Object.fromEntries(
    Array.from({ length: count }, (_, i) => [`field${i}`, { type: 'string' }]),
  ),
});

// ~1 MB of question: each string property was once filled with all of it (500 MB of answer)
const question = 'describe this in detail please '.repeat(34_000);

describe('a demo model through the gateway (issue 24, point 6)', () => {
  it('answers a 1 MB request with 500 string properties in far less than 1 MB', async () => {
    const body = {
      model: 'auto',
      messages: [user(question)],
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'wide', schema: stringProperties(500) },
      },
    };
    expect(Buffer.byteLength(JSON.stringify(body))).toBeGreaterThan(MB);
    const response = await postJson(`${gateway.url}/v1/chat/completions`, body);
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(Buffer.byteLength(text)).toBeLessThan(MB / 8);
    const content = (JSON.parse(text) as { choices: { message: { content: string } }[] })
      .choices[0]!.message.content;
    expect(Object.keys(JSON.parse(content) as object).length).toBeGreaterThan(0);
  });

  it('answers 2,000 string properties in tool parameters with a 200, not a 500', async () => {
    const response = await postJson(`${gateway.url}/v1/chat/completions`, {
      model: 'auto',
      messages: [user(question)],
      tools: [
        { type: 'function', function: { name: 'fill', parameters: stringProperties(2_000) } },
      ],
    });
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(Buffer.byteLength(text)).toBeLessThan(MB / 8);
  });

  it('streams a bounded answer too', async () => {
    const response = await postJson(`${gateway.url}/v1/chat/completions`, {
      model: 'auto',
      stream: true,
      messages: [user(question)],
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'wide', schema: stringProperties(2_000) },
      },
    });
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(text).toContain('[DONE]');
    // a long answer streams in at most 512 pieces, so its SSE framing stays small too
    expect(Buffer.byteLength(text)).toBeLessThan(MB / 4);
  });
});
