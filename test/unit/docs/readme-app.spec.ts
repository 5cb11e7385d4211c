// The README's Nest app, made only from the README's files (written out by writeSnippets and
// imported as they are, main.ts included), served over real HTTP against the project's
// FakeProvider: routed calls answer 200 on the route their examples teach, and a broken provider
// is a 503 with Retry-After once every model of the route cools down.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { FakeProvider } from 'nest-model-router/testing';
import { snippetPath, writeSnippets } from './support/markdown.js';

let fake: FakeProvider;
let app: INestApplication;
let url: string;

async function ask(content: string) {
  const res = await fetch(`${url}/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ messages: [{ role: 'user', content }] }),
  });
  return { res, body: (await res.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  writeSnippets('README.md');
  fake = await FakeProvider.start();
  process.env.OPENAI_BASE_URL = fake.openaiBaseURL;
  process.env.OPENAI_API_KEY = 'test-key';
  process.env.PORT = '0';
  ({ app } = (await import(snippetPath('README.md', 'src/main.ts'))) as { app: INestApplication });
  url = await app.getUrl();
});

afterAll(async () => {
  await app?.close();
  await fake?.close();
});

describe("the README's Nest app", () => {
  it.each(['hi', 'Thanks!', 'What is the capital of France?'])(
    'answers %p with 200 from the simple route',
    async (content) => {
      const { res, body } = await ask(content);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-model-router-route')).toBe('simple');
      expect(body).toEqual({ text: `You said: ${content} (model gpt-4o-mini)`, route: 'simple' });
      expect(res.headers.get('x-model-router-model')).toBe('mini');
    },
  );

  it('sends a proof to the complex route, whose group starts with the large model', async () => {
    const { res, body } = await ask('Prove that the square root of 2 is irrational');
    expect(res.status).toBe(200);
    expect(body.route).toBe('complex');
    expect(body.text).toContain('(model gpt-4o)');
  });

  it('answers 400 naming the field when the body is not a chat request', async () => {
    const res = await fetch(`${url}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'robot', content: 'hi' }] }),
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain('role');
  });

  it('answers 503 with Retry-After once both models of the route cool down', async () => {
    fake.setFault('gpt-4o-mini', 'fault-503');
    fake.setFault('gpt-4o', 'fault-503');
    const first = await ask('hi');
    expect(first.res.status).toBe(503);
    expect(Number(first.res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(first.body).toMatchObject({ statusCode: 503, error: 'NoMatchingModelFoundException' });

    const asked = fake.requests.count();
    const next = await ask('hi');
    expect(next.res.status).toBe(503);
    expect(next.res.headers.get('retry-after')).toBe('30');
    expect(next.body.code).toBe('models_cooling_down');
    expect(String(next.body.message)).toContain('cooling down');
    expect(fake.requests.count()).toBe(asked); // no model was asked while they cool down
  });
});
