import 'reflect-metadata';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Registry } from 'prom-client';
import { FakeProvider } from '../../../src/testing/index.js';
import { deferred } from '../../support/async.js';
import { ManualClock, startGateway, type RunningGateway } from './gateway-harness.js';
import { chatBody, KEYS, TEAM_FIXTURE, teamEnv } from './team-support.js';

/** A long answer: 40,000 one-token words, some 6 MB of SSE through the gateway. */
const ANSWER_TOKENS = 40_000;
const ANSWER = Array.from({ length: ANSWER_TOKENS }, (_, i) => `w${i % 10}`).join(' ');
const SLOW_CLIENTS = 5;
/** The fixture's prices, USD per token: a cut stream is charged its prompt estimate and deltas. */
const OUTPUT_USD = 200 / 1e6;
const PROMPT_USD = (Math.ceil('hello there'.length / 4) * 100) / 1e6;
/**
 * Events the gateway may hold for a client beyond what its socket took: the response's buffer
 * (16 KiB, ~150 events) and the event in hand. A gateway without backpressure holds the rest of
 * the answer: tens of thousands.
 */
const MAX_HELD_EVENTS = 400;

interface SlowClient {
  socket: Socket;
  /** Resolves with the answer's text events the client got once it reads after all. */
  readAll(): Promise<number>;
}

/** Sends a streamed chat request over a raw socket, and reads nothing until told to. */
function slowClient(url: string): SlowClient {
  const { hostname, port } = new URL(url);
  const body = chatBody('auto', { stream: true });
  const socket = connect(Number(port), hostname);
  socket.pause();
  socket.on('error', () => undefined);
  socket.write(
    [
      'POST /v1/chat/completions HTTP/1.1',
      `host: ${hostname}:${port}`,
      'content-type: application/json',
      `authorization: Bearer ${KEYS.teamA}`,
      `content-length: ${Buffer.byteLength(body)}`,
      'connection: close',
      '',
      body,
    ].join('\r\n'),
  );
  return {
    socket,
    readAll: () =>
      new Promise((resolve) => {
        let text = '';
        socket.setEncoding('utf8');
        socket.on('data', (chunk: string) => (text += chunk));
        socket.on('close', () => resolve((text.match(/"content":"\s*w\d/g) ?? []).length));
        socket.resume();
      }),
  };
}

/**
 * Backpressure (issue 24, point 5): a client that does not read holds back its provider stream
 * (the gateway buffers a bounded amount for it), and is dropped after `streamStallMs`, charged
 * what its call used; other clients are served meanwhile.
 */
describe('streaming to clients that do not read', () => {
  const clock = new ManualClock(Date.parse('2030-01-10T10:30:30Z'));
  let fake: FakeProvider;
  let gateway: RunningGateway;
  const clients: SlowClient[] = [];
  const dropped: string[] = [];
  const everyClientDropped = deferred<void>();

  const spent = async (): Promise<number> => {
    const response = await fetch(`${gateway.url}/v1/key`, {
      headers: { authorization: `Bearer ${KEYS.teamA}` },
    });
    return ((await response.json()) as { budget: { spentUsd: number } }).budget.spentUsd;
  };

  beforeAll(async () => {
    fake = await FakeProvider.start({ apiKey: KEYS.upstream });
    fake.setAnswer('gpt-4o-mini', { text: ANSWER });
    fake.setAnswer('gpt-4o', { text: 'a short answer' });
    gateway = await startGateway({
      config: TEAM_FIXTURE,
      env: teamEnv(fake, { TEAM_A_BUDGET: '1000' }),
      clock: clock.read,
      metricsRegistry: new Registry(),
      streamStallMs: 300,
      accessLog: {
        json: true,
        write: (line) => {
          const entry = JSON.parse(line) as { key?: string; outcome: string; path: string };
          if (entry.key !== 'team-a' || entry.path !== '/v1/chat/completions') return;
          dropped.push(entry.outcome);
          if (dropped.length === SLOW_CLIENTS) everyClientDropped.resolve();
        },
      },
    });
  });

  afterAll(async () => {
    for (const client of clients) client.socket.destroy();
    await gateway.close();
    await fake.close();
  });

  it('holds back the provider, drops them, and charges what they were sent', async () => {
    for (let i = 0; i < SLOW_CLIENTS; i++) clients.push(slowClient(gateway.url));
    // meanwhile another client is served in full
    const other = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEYS.teamB}` },
      body: JSON.stringify({
        model: 'fake/gpt-4o',
        messages: [{ role: 'user', content: 'hi' }],
        stream: true,
      }),
    });
    expect(other.status).toBe(200);
    expect(await other.text()).toContain('[DONE]');

    // each slow client is dropped after reading nothing for 300 ms
    await everyClientDropped.promise;
    expect(dropped).toEqual(Array.from({ length: SLOW_CLIENTS }, () => 'aborted'));
    // what the sockets took reaches the clients once they read after all
    const received = (await Promise.all(clients.map((client) => client.readAll()))).reduce(
      (sum, count) => sum + count,
      0,
    );
    // every drop was charged: the prompt and each event read from the provider
    let pulled = 0;
    for (let i = 0; i < 1000; i++) {
      pulled = Math.round(((await spent()) - SLOW_CLIENTS * PROMPT_USD) / OUTPUT_USD);
      if (pulled >= received) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(received).toBeGreaterThan(0);
    expect(pulled).toBeGreaterThanOrEqual(received);
    // the gateway read from the provider only a little more than the clients' sockets took
    expect(pulled - received).toBeLessThanOrEqual(SLOW_CLIENTS * MAX_HELD_EVENTS);
    expect(pulled).toBeLessThan(SLOW_CLIENTS * ANSWER_TOKENS);
  }, 60_000);
});
