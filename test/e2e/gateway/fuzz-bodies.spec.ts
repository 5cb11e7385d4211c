import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { demoGatewayConfig } from '../../../apps/gateway/src/config/demo-config.js';
import { hostileBodies, type HostileBody } from '../../../bench/lib/hostile-bodies.js';
import { startGateway, type RunningGateway } from './gateway-harness.js';

/** Issue 12: no body makes the gateway answer 5xx, hang, or send a large answer. */
const BODIES = 2000;
const CONCURRENCY = 16;
/** A hang: a request not answered within this. */
const HANG_MS = 10_000;
/** An error answer, or a demo answer to a body that turned out valid, is far below this. */
const MAX_ANSWER_BYTES = 16 * 1024;

interface Verdict {
  body: HostileBody;
  status: number;
  bytes: number;
}

let gateway: RunningGateway;

beforeAll(async () => {
  gateway = await startGateway({ config: demoGatewayConfig({ tokenDelayMs: 0, failEvery: 0 }) });
});

afterAll(() => gateway.close());

async function send(body: HostileBody): Promise<Verdict> {
  try {
    const response = await fetch(`${gateway.url}${body.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: body.raw,
      signal: AbortSignal.timeout(HANG_MS),
    });
    const bytes = (await response.arrayBuffer()).byteLength;
    return { body, status: response.status, bytes };
  } catch (error) {
    return { body, status: (error as Error).name === 'TimeoutError' ? -1 : -2, bytes: 0 };
  }
}

describe(`a seeded corpus of ${BODIES} malformed bodies, half to each chat endpoint`, () => {
  it('gets no 5xx, no hang and no answer over 16 KB', async () => {
    const corpus = hostileBodies(BODIES, 12);
    expect(new Set(corpus.map((body) => body.path))).toEqual(
      new Set(['/v1/chat/completions', '/chat']),
    );
    const verdicts: Verdict[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < corpus.length) verdicts.push(await send(corpus[next++]!));
      }),
    );

    const failed = verdicts.filter(
      (v) => v.status < 0 || v.status >= 500 || v.bytes > MAX_ANSWER_BYTES,
    );
    const shown = failed
      .slice(0, 3)
      .map((v) => ({ ...v, body: { ...v.body, raw: v.body.raw.slice(0, 300) } }));
    expect(shown).toEqual([]);
    // the corpus is hostile: most bodies are refused, with a client error
    const refused = verdicts.filter((v) => v.status >= 400 && v.status < 500).length;
    expect(refused / verdicts.length).toBeGreaterThan(0.8);
    // and the gateway still serves
    const health = await fetch(`${gateway.url}/health`);
    expect(health.status).toBe(200);
    // 2,000 requests take ~6 s alone; a CI worker sharing its core with other suites needs more
  }, 90_000);
});
