import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Registry } from 'prom-client';
import { FakeProvider } from '../../../src/testing/index.js';
import { startGateway, type RunningGateway } from './gateway-harness.js';
import { chatBody, KEYS, teamEnv, teamFixtureWith } from './team-support.js';

const chat = (target: RunningGateway, body: string, headers: Record<string, string> = {}) =>
  fetch(`${target.url}/v1/chat/completions`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${KEYS.teamA}`,
      ...headers,
    },
    body,
  });

describe('access log and CORS', () => {
  let fake: FakeProvider;
  let gateway: RunningGateway;
  let text: RunningGateway;
  const lines: string[] = [];
  const textLines: string[] = [];

  beforeAll(async () => {
    fake = await FakeProvider.start({ apiKey: KEYS.upstream });
    const config = teamFixtureWith("cors: { origins: ['https://chat.example.com'] }");
    gateway = await startGateway({
      config,
      env: teamEnv(fake),
      accessLog: { write: (line) => lines.push(line), json: true },
      metricsRegistry: new Registry(),
    });
    text = await startGateway({
      config,
      env: teamEnv(fake),
      accessLog: { write: (line) => textLines.push(line), json: false },
      metricsRegistry: new Registry(),
    });
  });

  afterAll(async () => {
    await gateway.close();
    await text.close();
    await fake.close();
  });

  /** The line of a request, once its connection is done with it. */
  async function lineOf(id: string, from = lines): Promise<string> {
    for (let i = 0; i < 50 && !from.some((line) => line.includes(id)); i++) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    return from.find((line) => line.includes(id)) ?? '(none)';
  }

  it('one JSON line per request, route and model from the call record', async () => {
    const answer = await chat(gateway, chatBody('auto'), { 'x-request-id': 'req-plain-1' });
    expect(answer.status).toBe(200);
    await answer.text();
    const entry = JSON.parse(await lineOf('req-plain-1')) as Record<string, unknown>;
    expect(entry).toMatchObject({
      type: 'access',
      requestId: 'req-plain-1',
      method: 'POST',
      path: '/v1/chat/completions',
      status: 200,
      outcome: 'completed',
      key: 'team-a',
      router: 'auto',
      model: answer.headers.get('x-model-router-model'),
      tokens: { input: 2, output: 6, total: 8 },
      // 2 × 100 + 6 × 200 USD per million tokens
      costUsd: 0.0014,
    });
    expect(entry.durationMs).toEqual(expect.any(Number));
    expect(entry).not.toHaveProperty('timeToFirstTokenMs');
  });

  it('streams get their time to first token; refusals their status and no key', async () => {
    const stream = await chat(gateway, chatBody('auto', { stream: true }), {
      'x-request-id': 'req-stream-1',
    });
    await stream.text();
    const streamed = JSON.parse(await lineOf('req-stream-1')) as Record<string, unknown>;
    expect(streamed.timeToFirstTokenMs).toEqual(expect.any(Number));
    expect(streamed.status).toBe(200);
    const refused = await chat(gateway, chatBody('auto'), {
      authorization: 'Bearer nope-nope-nope-nope',
      'x-request-id': 'req-refused-1',
    });
    expect(refused.status).toBe(401);
    const entry = JSON.parse(await lineOf('req-refused-1')) as Record<string, unknown>;
    expect(entry).toMatchObject({ status: 401 });
    expect(entry).not.toHaveProperty('key');
  });

  it('a terminal gets a short text line without colours', async () => {
    const answer = await chat(text, chatBody('mini'), { 'x-request-id': 'req-text-1' });
    await answer.text();
    const line = await lineOf('req-text-1', textLines);
    expect(line).toMatch(
      /^POST \/v1\/chat\/completions 200 [\d.]+ms key=team-a model=mini tokens=8 cost=\$0\.0014 id=req-text-1$/,
    );
    expect(line).not.toContain('\u001b');
  });

  it('CORS answers the configured origins only', async () => {
    const preflight = (origin: string) =>
      fetch(`${gateway.url}/v1/chat/completions`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,content-type',
        },
      });
    const allowed = await preflight('https://chat.example.com');
    expect(allowed.status).toBeLessThan(300);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://chat.example.com');
    const other = await preflight('https://evil.example');
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    const answer = await chat(gateway, chatBody('auto'), { origin: 'https://chat.example.com' });
    // a page reads every header the gateway adds (x-model-router-cost included)
    const exposed = answer.headers.get('access-control-expose-headers')!.split(/, */);
    const added = [...answer.headers.keys()].filter((name) => name.startsWith('x-'));
    expect(added).toEqual(expect.arrayContaining(['x-request-id', 'x-model-router-cost']));
    expect(exposed).toEqual(expect.arrayContaining(added));
  });
});

describe('a request the client abandoned (issue 24, point 7)', () => {
  let fake: FakeProvider;
  let gateway: RunningGateway;
  const waiting = new Map<string, (entry: Record<string, unknown>) => void>();
  const written = new Map<string, Record<string, unknown>>();

  beforeAll(async () => {
    // slow tokens: a stream is still running when its client leaves
    fake = await FakeProvider.start({ apiKey: KEYS.upstream, tokenDelayMs: 200 });
    gateway = await startGateway({
      config: teamFixtureWith(''),
      env: teamEnv(fake),
      accessLog: {
        write: (line) => {
          const entry = JSON.parse(line) as Record<string, unknown>;
          const id = String(entry.requestId);
          written.set(id, entry);
          waiting.get(id)?.(entry);
        },
        json: true,
      },
      metricsRegistry: new Registry(),
    });
  });

  afterAll(async () => {
    await gateway.close();
    await fake.close();
  });

  const entryOf = (id: string) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const entry = written.get(id);
      if (entry) resolve(entry);
      else waiting.set(id, resolve);
    });

  it('is logged as 499, not the 201 Nest had not yet replaced', async () => {
    const abort = new AbortController();
    const answer = fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${KEYS.teamB}`,
        'x-request-id': 'req-abandoned-1',
      },
      body: chatBody('fake/gpt-4o-fault-hang'),
      signal: abort.signal,
    });
    while (fake.requests.count('gpt-4o-fault-hang') === 0) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    abort.abort();
    await answer.catch(() => undefined);
    const entry = await entryOf('req-abandoned-1');
    expect(entry).toMatchObject({ status: 499, outcome: 'aborted', key: 'team-b' });
    expect(entry).not.toHaveProperty('sentStatus');
  });

  it('a stream dropped midway is 499 too, with the status it had been sent', async () => {
    const abort = new AbortController();
    const answer = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${KEYS.teamA}`,
        'x-request-id': 'req-abandoned-2',
      },
      body: chatBody('mini', { stream: true }),
      signal: abort.signal,
    });
    expect(answer.status).toBe(200);
    await answer.body!.getReader().read();
    abort.abort();
    const entry = await entryOf('req-abandoned-2');
    expect(entry).toMatchObject({ status: 499, sentStatus: 200, outcome: 'aborted' });
  });
});
