import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { demoGatewayConfig } from '../../../apps/gateway/src/config/demo-config.js';
import type { ChatResponse } from '../../../src/core/chat/response.js';
import { postJson, startGateway, type RunningGateway } from './gateway-harness.js';

describe('POST /chat: the module’s ChatRequest over HTTP', () => {
  let gateway: RunningGateway;

  beforeAll(async () => {
    gateway = await startGateway({ config: demoGatewayConfig({ tokenDelayMs: 0, failEvery: 0 }) });
  });

  afterAll(async () => {
    await gateway.close();
  });

  it('answers with the ChatResponse, its route attribute and the routing headers', async () => {
    const response = await postJson(`${gateway.url}/chat`, {
      messages: [{ role: 'user', content: 'Prove that there are infinitely many prime numbers.' }],
      parameters: { maxOutputTokens: 5 },
    });
    const body = (await response.json()) as ChatResponse;

    expect(response.status).toBe(200);
    expect(response.headers.get('x-model-router-route')).toBe('complex');
    expect(response.headers.get('x-model-router-model')).toBe('demo-pro');
    expect(body.aiMessage.attributes).toMatchObject({ chat_model_route: 'complex' });
    expect(body.modelName).toBe('demo-pro');
    // maxOutputTokens reached the model: five words, cut for length
    expect(body.aiMessage.text!.trim().split(/\s+/)).toHaveLength(5);
    expect(body.finishReason).toBe('length');
  });

  it('uses the router named in the body', async () => {
    const response = await postJson(`${gateway.url}/chat`, {
      router: 'auto',
      messages: [{ role: 'user', content: 'What is the capital of France?' }],
    });

    expect(response.status).toBe(200);
    expect(((await response.json()) as ChatResponse).aiMessage.text).toContain(
      "on router 'auto', route 'simple'",
    );
  });

  it('rejects an invalid message with 400 naming the field', async () => {
    const response = await postJson(`${gateway.url}/chat`, {
      messages: [{ role: 'tool', text: 'result without an id' }],
    });
    const body = (await response.json()) as { error: { message: string; param: string } };

    expect(response.status).toBe(400);
    expect(body.error.param).toBe('messages.0.toolCallId');
  });

  it('answers 404 for an unknown router', async () => {
    const response = await postJson(`${gateway.url}/chat`, {
      router: 'nope',
      messages: [{ role: 'user', content: 'hi' }],
    });
    const body = (await response.json()) as { error: { message: string; param: string } };

    expect(response.status).toBe(404);
    expect(body.error.param).toBe('router');
    expect(body.error.message).toContain("'nope'");
    expect(body.error.message).toContain('auto');
  });
});
