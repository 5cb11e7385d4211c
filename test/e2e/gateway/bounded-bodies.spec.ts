import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { demoGatewayConfig } from '../../../apps/gateway/src/config/demo-config.js';
import { postJson, startGateway, user, type RunningGateway } from './gateway-harness.js';

interface WireErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

/** An error answer of the gateway stays this small, whatever the body held. */
const MAX_ERROR_BYTES = 8 * 1024;

let gateway: RunningGateway;

beforeAll(async () => {
  gateway = await startGateway({ config: demoGatewayConfig({ tokenDelayMs: 0, failEvery: 0 }) });
});

afterAll(() => gateway.close());

async function badRequest(path: string, body: unknown): Promise<WireErrorBody['error']> {
  const response = await postJson(`${gateway.url}${path}`, body);
  const text = await response.text();
  expect(response.status).toBe(400);
  expect(Buffer.byteLength(text)).toBeLessThan(MAX_ERROR_BYTES);
  return (JSON.parse(text) as WireErrorBody).error;
}

describe('a body with a huge array (issue 12, point 1)', () => {
  // 100,000 empty messages: 300 KB of body once gave a 7 MB error answer listing each of them
  const emptyMessages = Array.from({ length: 100_000 }, () => ({}));

  it('is refused on /v1/chat/completions before its elements are validated', async () => {
    const error = await badRequest('/v1/chat/completions', {
      model: 'auto',
      messages: emptyMessages,
    });
    expect(error.param).toBe('messages');
    expect(error.message).toContain('messages has 100000 elements; at most 4096');
  });

  it('is refused on /chat, which had no cap at all', async () => {
    const error = await badRequest('/chat', { messages: emptyMessages });
    expect(error.param).toBe('messages');
    expect(error.message).toContain('at most 4096');
  });

  it('is refused wherever the array is (a content part list)', async () => {
    const parts = Array.from({ length: 5000 }, () => ({ type: 'text', text: 'x' }));
    const error = await badRequest('/chat', { messages: [{ role: 'user', content: parts }] });
    expect(error.param).toBe('messages.0.content');
  });

  it('is refused when it holds too many values in total, each array under the cap', async () => {
    const wide = Array.from({ length: 4000 }, () => ({
      role: 'user',
      content: Array.from({ length: 30 }, () => ({ type: 'text', text: 'x' })),
    }));
    const error = await badRequest('/v1/chat/completions', { model: 'auto', messages: wide });
    expect(error.message).toContain('more than 100000 JSON values');
  });

  it('lists at most 10 problems and says how many more there are', async () => {
    const error = await badRequest('/chat', {
      messages: Array.from({ length: 4000 }, () => ({})),
    });
    expect(error.param).toBe('messages.0.role');
    expect(error.message.split('; ')).toHaveLength(10);
    expect(error.message).toMatch(/\(and \d+ more problems\)$/);
  });

  it('still serves an ordinary body of 4096 messages', async () => {
    const messages = Array.from({ length: 4096 }, (_, i) => user(`message ${i}`));
    const response = await postJson(`${gateway.url}/chat`, { messages });
    expect(response.status).toBe(200);
  });
});

describe('nested arrays where objects belong (issue 12, point 8)', () => {
  const tool = { type: 'function', function: { name: 'lookup', parameters: {} } };

  it.each([
    ['tools: [[]]', { tools: [[]] }, 'tools'],
    ['tools[0].function: []', { tools: [{ ...tool, function: [] }] }, 'tools.0.function'],
    ['response_format: []', { response_format: [] }, 'response_format'],
  ])('answers %s with 400 naming the field', async (_name, fields, param) => {
    const error = await badRequest('/v1/chat/completions', {
      model: 'auto',
      messages: [user('hi')],
      ...fields,
    });
    expect(error.param).toBe(param);
  });

  it('answers messages[0].tool_calls: [[]] with 400 naming the field', async () => {
    const error = await badRequest('/v1/chat/completions', {
      model: 'auto',
      messages: [user('hi'), { role: 'assistant', content: null, tool_calls: [[]] }],
    });
    expect(error.param).toBe('messages.1.tool_calls');
  });

  it.each([
    ['parameters.tools: [[]]', { parameters: { tools: [[]] } }, 'parameters.tools'],
    [
      'messages[1].toolCalls: [[]]',
      { messages: [user('hi'), { role: 'assistant', toolCalls: [[]] }] },
      'messages.1.toolCalls',
    ],
  ])('answers %s on /chat with 400 naming the field', async (_name, fields, param) => {
    const error = await badRequest('/chat', { messages: [user('hi')], ...fields });
    expect(error.param).toBe(param);
  });
});

describe('an empty failover list (issue 12, point 10)', () => {
  it('is no fallback, not a 400', async () => {
    const response = await postJson(`${gateway.url}/v1/chat/completions`, {
      model: 'auto',
      models: [],
      messages: [user('What is the capital of France?')],
    });
    expect(response.status).toBe(200);
  });
});
