import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { demoGatewayConfig } from '../../../apps/gateway/src/config/demo-config.js';
import { hostileBodiesFor, type HostileBody } from '../../../bench/lib/hostile-bodies.js';
import { FUZZED_SURFACES } from '../../../bench/lib/hostile-surfaces.js';
import { startGateway, type RunningGateway } from '../gateway/gateway-harness.js';

/** As fuzz-bodies.spec.ts for chat: no body makes a new endpoint answer 5xx, hang or flood. */
const PER_ENDPOINT = 500;
const CONCURRENCY = 16;
const HANG_MS = 10_000;
/** A response echoes its request's fields in three events: more room than chat's 16 KB. */
const MAX_ANSWER_BYTES = 256 * 1024;

let gateway: RunningGateway;

beforeAll(async () => {
  gateway = await startGateway({ config: demoGatewayConfig({ tokenDelayMs: 0, failEvery: 0 }) });
});

afterAll(() => gateway.close());

async function send(
  body: HostileBody,
): Promise<{ body: HostileBody; status: number; bytes: number }> {
  try {
    const response = await fetch(`${gateway.url}${body.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: body.raw,
      signal: AbortSignal.timeout(HANG_MS),
    });
    return { body, status: response.status, bytes: (await response.arrayBuffer()).byteLength };
  } catch (error) {
    return { body, status: (error as Error).name === 'TimeoutError' ? -1 : -2, bytes: 0 };
  }
}

describe(`${PER_ENDPOINT} malformed bodies to each of /v1/responses, /v1/messages, /v1/embeddings`, () => {
  it('get no 5xx, no hang and no flood; most are refused with a 4xx', async () => {
    const corpus = FUZZED_SURFACES.flatMap(([path, base, fields], i) =>
      hostileBodiesFor(path, base, fields, PER_ENDPOINT, 16 + i),
    );
    const verdicts: Awaited<ReturnType<typeof send>>[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < corpus.length) verdicts.push(await send(corpus[next++]!));
      }),
    );
    const failed = verdicts.filter(
      (v) => v.status < 0 || v.status >= 500 || v.bytes > MAX_ANSWER_BYTES,
    );
    expect(
      failed.slice(0, 3).map((v) => ({ ...v, body: { ...v.body, raw: v.body.raw.slice(0, 300) } })),
    ).toEqual([]);
    for (const [path] of FUZZED_SURFACES) {
      const mine = verdicts.filter((v) => v.body.path === path);
      const refused = mine.filter((v) => v.status >= 400 && v.status < 500).length;
      expect(refused / mine.length).toBeGreaterThan(0.6);
    }
    expect((await fetch(`${gateway.url}/health`)).status).toBe(200);
    // 1,500 requests: a CI worker sharing its core with other suites needs more than the default
  }, 90_000);
});
