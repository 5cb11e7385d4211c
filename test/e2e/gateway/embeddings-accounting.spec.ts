import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import OpenAI from 'openai';
import { Registry } from 'prom-client';
import { FakeProvider } from '../../../src/testing/index.js';
import { ManualClock, startGateway, type RunningGateway } from './gateway-harness.js';
import { authed, chatBody, clientWith, KEYS, teamEnv } from './team-support.js';
import { sampleValue } from '../../support/metric-samples.js';

const FIXTURE = new URL('./fixtures/embeddings-team.yaml', import.meta.url).pathname;
const EMBEDDER = 'sk-embedder-0123456789abcdef-canary';
const CHATTER = 'sk-chatter-fedcba9876543210-canary';
/** Six tokens for demo-embedding (one per word). */
const SIX_TOKENS = 'the cat sat on the mat';

function embeddingsEnv(fake: FakeProvider, extra: Record<string, string> = {}) {
  return { ...teamEnv(fake), EMBEDDER_KEY: EMBEDDER, CHATTER_KEY: CHATTER, ...extra };
}

const chat = (gateway: RunningGateway, key = EMBEDDER) =>
  fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: chatBody('mini'),
  });

const embed = (gateway: RunningGateway, body: Record<string, unknown>, key = EMBEDDER) =>
  fetch(`${gateway.url}/v1/embeddings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify(body),
  });

async function errorOf(answer: Response): Promise<Record<string, unknown>> {
  return ((await answer.json()) as { error: Record<string, unknown> }).error;
}

/** Embeddings count as chat calls do: the key's rpm/tpm and budget, metrics, access log, models. */
describe('POST /v1/embeddings under a key’s limits, budget and scope', () => {
  let fake: FakeProvider;

  beforeAll(async () => {
    fake = await FakeProvider.start({ apiKey: KEYS.upstream });
  });

  afterAll(() => fake.close());

  describe('rpm', () => {
    const clock = new ManualClock();
    let gateway: RunningGateway;

    beforeAll(async () => {
      gateway = await startGateway({
        config: FIXTURE,
        env: embeddingsEnv(fake, { EMBEDDER_RPM: '2' }),
        clock: clock.read,
        metricsRegistry: new Registry(),
      });
    });

    afterAll(() => gateway.close());

    it('counts embeddings in the key’s requests window: the SDK sees a RateLimitError', async () => {
      const client = clientWith(gateway.url, EMBEDDER);
      const remaining: (string | null)[] = [];
      for (let i = 0; i < 2; i++) {
        const { response } = await client.embeddings
          .create({ model: 'demo-embedding', input: SIX_TOKENS })
          .withResponse();
        remaining.push(response.headers.get('x-ratelimit-remaining-requests'));
      }
      expect(remaining).toEqual(['1', '0']);
      const error = await client.embeddings
        .create({ model: 'demo-embedding', input: SIX_TOKENS })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OpenAI.RateLimitError);
      expect((error as InstanceType<typeof OpenAI.RateLimitError>).code).toBe(
        'rate_limit_exceeded',
      );
      // one window for every surface: the key's chat calls wait too
      expect((await chat(gateway)).status).toBe(429);
      clock.advance(60_000);
      const again = await client.embeddings.create({ model: 'demo-embedding', input: 'hello' });
      expect(again.data).toHaveLength(1);
    });
  });

  describe('tpm', () => {
    const clock = new ManualClock();
    let gateway: RunningGateway;

    beforeAll(async () => {
      gateway = await startGateway({
        config: FIXTURE,
        env: embeddingsEnv(fake, { EMBEDDER_TPM: '10' }),
        clock: clock.read,
        metricsRegistry: new Registry(),
      });
    });

    afterAll(() => gateway.close());

    it('adds the input tokens to the key’s tokens window, then refuses embeddings and chat', async () => {
      const client = clientWith(gateway.url, EMBEDDER);
      const first = await client.embeddings.create({
        model: 'demo-embedding',
        input: [SIX_TOKENS, SIX_TOKENS],
      });
      expect(first.usage.prompt_tokens).toBe(12);
      const refused = await embed(gateway, { model: 'demo-embedding', input: 'hello' });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('x-ratelimit-remaining-tokens')).toBe('0');
      expect(await errorOf(refused)).toMatchObject({ code: 'rate_limit_exceeded', type: 'tokens' });
      expect((await chat(gateway)).status).toBe(429);
      // the chatter key has no tpm and its own windows
      expect((await chat(gateway, CHATTER)).status).toBe(200);
      clock.advance(60_000);
      expect((await embed(gateway, { model: 'demo-embedding', input: 'hello' })).status).toBe(200);
    });

    it('counts an answer without usage at the estimate (4 characters a token)', async () => {
      clock.advance(60_000);
      // 44 characters → 11 estimated tokens, over the window of 10
      const answer = await embed(gateway, {
        model: 'fake/emb-no-usage',
        input: 'x'.repeat(44),
      });
      expect(answer.status).toBe(200);
      expect(((await answer.json()) as { usage?: unknown }).usage).toMatchObject({
        prompt_tokens: 0,
      });
      const refused = await embed(gateway, { model: 'demo-embedding', input: 'hello' });
      expect(refused.status).toBe(429);
      expect(await errorOf(refused)).toMatchObject({ code: 'rate_limit_exceeded', type: 'tokens' });
    });
  });

  describe('budget', () => {
    let gateway: RunningGateway;
    const spent = async () =>
      (
        (await (await fetch(`${gateway.url}/v1/key`, authed(EMBEDDER))).json()) as {
          budget: { spentUsd: number; state: string };
        }
      ).budget;

    beforeAll(async () => {
      gateway = await startGateway({
        config: FIXTURE,
        // one chat answer costs 0.0014 USD
        env: embeddingsEnv(fake, { EMBEDDER_BUDGET: '0.001' }),
        metricsRegistry: new Registry(),
      });
    });

    afterAll(() => gateway.close());

    it('embeds for free (no pricing), and not once the key’s budget is spent', async () => {
      expect((await embed(gateway, { model: 'demo-embedding', input: SIX_TOKENS })).status).toBe(
        200,
      );
      expect(await spent()).toMatchObject({ spentUsd: 0, state: 'ok' });
      expect((await chat(gateway)).status).toBe(200);
      expect((await spent()).state).toBe('exceeded');
      for (const model of ['demo-embedding', 'fake/text-embedding-3-small']) {
        const refused = await embed(gateway, { model, input: SIX_TOKENS });
        expect(refused.status).toBe(429);
        const error = await errorOf(refused);
        expect(error.code).toBe('budget_exceeded');
        expect(error.message).toContain("Budget 'key:embedder' is spent");
      }
    });
  });

  describe('models, metrics and the access log', () => {
    let gateway: RunningGateway;
    const lines: string[] = [];

    beforeAll(async () => {
      gateway = await startGateway({
        config: FIXTURE,
        env: embeddingsEnv(fake),
        accessLog: { write: (line) => lines.push(line), json: true },
        metricsRegistry: new Registry(),
      });
    });

    afterAll(() => gateway.close());

    it('GET /v1/models lists the embedding models a key may use, in OpenAI’s shape', async () => {
      const listed = async (key: string) =>
        (await clientWith(gateway.url, key).models.list()).data.map((model) => model.id);
      expect(await listed(EMBEDDER)).toEqual(['auto', 'mini', 'demo-embedding']);
      expect(await listed(CHATTER)).toEqual(['auto', 'mini']);
      expect(await listed(KEYS.ops)).toEqual(['auto', 'mini', 'demo-embedding']);
      const model = await clientWith(gateway.url, EMBEDDER).models.retrieve('demo-embedding');
      expect(model).toMatchObject({ id: 'demo-embedding', object: 'model', kind: 'embedding' });
    });

    it('a key outside an embedding model’s scope neither sees it nor uses it', async () => {
      const client = clientWith(gateway.url, CHATTER);
      for (const attempt of [
        client.models.retrieve('demo-embedding'),
        client.embeddings.create({ model: 'demo-embedding', input: 'hello' }),
      ]) {
        const error = await attempt.catch((e: unknown) => e);
        expect(error).toBeInstanceOf(OpenAI.PermissionDeniedError);
        expect((error as InstanceType<typeof OpenAI.PermissionDeniedError>).code).toBe(
          'model_not_allowed',
        );
      }
    });

    it('counts calls and input tokens per embedding model, with bounded labels', async () => {
      const client = clientWith(gateway.url, EMBEDDER);
      await client.embeddings.create({ model: 'demo-embedding', input: [SIX_TOKENS, 'a cat'] });
      await client.embeddings.create({ model: 'fake/text-embedding-3-small', input: 'hello' });
      const listed = await embed(gateway, {
        model: 'fake/emb-fault-503',
        models: ['demo-embedding'],
        input: SIX_TOKENS,
      });
      expect(listed.status).toBe(200);
      expect((await embed(gateway, { model: 'fake/emb-fault-503', input: 'x' })).status).toBe(502);
      const scrape = await fetch(`${gateway.url}/metrics`, authed(KEYS.ops));
      expect(scrape.status).toBe(200);
      const text = await scrape.text();
      const calls = (model: string, outcome: string) =>
        sampleValue(text, 'model_router_embedding_requests_total', { model, outcome });
      const tokens = (model: string) =>
        sampleValue(text, 'model_router_embedding_tokens_total', { model });
      expect(calls('demo-embedding', 'ok')).toBe(1);
      expect(calls('fake/*', 'ok')).toBe(1);
      expect(calls('failover', 'ok')).toBe(1);
      expect(calls('fake/*', 'error')).toBe(1);
      expect(tokens('demo-embedding')).toBe(8);
      expect(tokens('fake/*')).toBeGreaterThan(0);
      expect(tokens('failover')).toBe(6);
      // embeddings are not chat calls
      expect(text).not.toMatch(/model_router_requests_total\{[^}]*embedding/);
      expect(text).not.toContain('canary');
    });

    it('logs the key, the model that answered and the input tokens', async () => {
      const answer = await fetch(`${gateway.url}/v1/embeddings`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${EMBEDDER}`,
          'x-request-id': 'req-embedding-1',
        },
        body: JSON.stringify({ model: 'demo-embedding', input: SIX_TOKENS }),
      });
      expect(answer.status).toBe(200);
      await answer.text();
      let line: string | undefined;
      for (let i = 0; i < 50 && line === undefined; i++) {
        line = lines.find((candidate) => candidate.includes('req-embedding-1'));
        if (line === undefined) await new Promise((resolve) => setImmediate(resolve));
      }
      expect(JSON.parse(line ?? '{}')).toMatchObject({
        path: '/v1/embeddings',
        status: 200,
        key: 'embedder',
        model: 'demo-embedding',
        tokens: { input: 6, output: 0, total: 6 },
      });
      expect(line).not.toContain('canary');
    });
  });
});
