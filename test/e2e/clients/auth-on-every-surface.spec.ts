import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { FakeProvider } from '../../../src/testing/index.js';
import { startGateway, type RunningGateway } from '../gateway/gateway-harness.js';
import { clientWith, KEYS, TEAM_FIXTURE, teamEnv } from '../gateway/team-support.js';

/**
 * The team fixture's keys and scopes hold on every surface, not only chat completions: the same
 * guard (Bearer or x-api-key), the same 403 for a name outside the key's scope, the same
 * provider allow-lists; and no key shows in any answer.
 */
describe('auth and scopes on /v1/responses, /v1/messages and /v1/embeddings', () => {
  let fake: FakeProvider;
  let gateway: RunningGateway;
  const anthropic = (apiKey: string) =>
    new Anthropic({ baseURL: gateway.url, apiKey, maxRetries: 0 });
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${gateway.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    fake = await FakeProvider.start({ apiKey: KEYS.upstream });
    gateway = await startGateway({ config: TEAM_FIXTURE, env: teamEnv(fake) });
  });

  afterAll(async () => {
    await gateway.close();
    await fake.close();
  });

  it('no key: 401 on each, in each surface’s error shape', async () => {
    const responses = await post('/v1/responses', { model: 'auto', input: 'hi' });
    expect(responses.status).toBe(401);
    expect(((await responses.json()) as { error: { code: string } }).error.code).toBe(
      'invalid_api_key',
    );
    const embeddings = await post('/v1/embeddings', { model: 'demo-embedding', input: 'hi' });
    expect(embeddings.status).toBe(401);
    await expect(
      anthropic('sk-not-a-key-of-this-gateway-000').messages.create({
        model: 'auto',
        max_tokens: 10,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    ).rejects.toBeInstanceOf(Anthropic.AuthenticationError);
    expect(fake.requests.all()).toHaveLength(0);
  });

  it('the Anthropic SDK’s x-api-key is the client’s key: served within the key’s scope', async () => {
    const message = await anthropic(KEYS.teamA).messages.create({
      model: 'auto',
      max_tokens: 50,
      messages: [{ role: 'user', content: 'hello there' }],
    });
    expect(message.content[0]).toMatchObject({ type: 'text' });
    const response = await clientWith(gateway.url, KEYS.teamA).responses.create({
      model: 'auto',
      input: 'hello there',
    });
    expect(response.status).toBe('completed');
  });

  it('a name outside the key’s scope is 403 on each surface, naming only that name', async () => {
    const team = clientWith(gateway.url, KEYS.teamA);
    const error = await team.responses
      .create({ model: 'internal', input: 'hi' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect((error as { code?: string }).code).toBe('model_not_allowed');
    await expect(
      anthropic(KEYS.teamA).messages.create({
        model: 'internal',
        max_tokens: 10,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    ).rejects.toBeInstanceOf(Anthropic.PermissionDeniedError);
    // team-a may use the model `mini` only: the offline embedding model is outside its scope
    const embedding = await team.embeddings
      .create({ model: 'demo-embedding', input: 'hi' })
      .catch((e: unknown) => e);
    expect(embedding).toBeInstanceOf(OpenAI.PermissionDeniedError);
  });

  it('a provider’s allow-list holds for embeddings; a key with provider models may use them', async () => {
    const teamB = clientWith(gateway.url, KEYS.teamB);
    // outside team-b's own scope (fake/gpt-4o*): refused by the scope, before the provider's list
    const outside = await teamB.embeddings
      .create({ model: 'fake/text-embedding-3-small', input: 'hi' })
      .catch((e: unknown) => e);
    expect(outside).toBeInstanceOf(OpenAI.PermissionDeniedError);
    // the admin key has no scope: the provider's allow-list refuses it
    const refused = await clientWith(gateway.url, KEYS.ops)
      .embeddings.create({ model: 'fake/text-embedding-3-small', input: 'hi' })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OpenAI.NotFoundError);
    expect((refused as Error).message).toContain('serves only the models');
    const served = await teamB.embeddings.create({ model: 'fake/gpt-4o-embed', input: 'hi' });
    expect(served.data[0]!.embedding.length).toBeGreaterThan(0);
  });

  it('a tool call id signed by the gateway brings the round back; no key in any answer', async () => {
    const team = clientWith(gateway.url, KEYS.teamA);
    const tools = [
      {
        type: 'function' as const,
        name: 'lookup',
        parameters: { type: 'object', properties: { q: { type: 'string' } } },
        strict: false,
      },
    ];
    const first = await team.responses.create({
      model: 'auto',
      input: 'look it up',
      tools,
      tool_choice: 'required',
    });
    const call = first.output.find((item) => item.type === 'function_call')!;
    expect(call.type === 'function_call' && call.call_id).toMatch(/^mr-[0-9a-f]+-[0-9a-f]{32}-/);
    const second = await team.responses.create({
      model: 'auto',
      tools,
      input: [
        { role: 'user', content: 'look it up' },
        call,
        {
          type: 'function_call_output',
          call_id: call.type === 'function_call' ? call.call_id : '',
          output: 'found',
        },
      ],
    });
    expect(second.output_text).toContain('found');
    const asked = fake.requests.all().map((request) => JSON.stringify(request.body));
    // the provider only ever sees its own id, and the answers never carry a key
    expect(asked.some((body) => body.includes('"found"'))).toBe(true);
    expect(asked.some((body) => body.includes('mr-'))).toBe(false);
    expect(JSON.stringify([first, second])).not.toMatch(/canary|fake-upstream-key/);
  });
});
