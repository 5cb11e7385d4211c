import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';

/** One target of the gateway benchmark: an origin and the body that asks it for a completion. */
export interface Target {
  name: string;
  origin: string;
  model: string;
}

const body = (model: string, stream: boolean) =>
  JSON.stringify({
    model,
    messages: [{ role: 'user', content: 'What is the capital of France?' }],
    ...(stream ? { stream: true } : {}),
  });

function pool(origin: string, connections: number): Pool {
  return new Pool(origin, { connections, keepAliveTimeout: 60_000 });
}

async function call(client: Pool, payload: string): Promise<void> {
  const answer = await client.request({
    path: '/v1/chat/completions',
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench-client' },
    body: payload,
  });
  const text = await answer.body.text();
  if (answer.statusCode !== 200 || !text.includes('Paris')) {
    throw new Error(`unexpected answer ${answer.statusCode}: ${text.slice(0, 200)}`);
  }
}

export interface Latency {
  medianMs: number;
  p99Ms: number;
}

function summarize(samples: number[]): Latency {
  samples.sort((a, b) => a - b);
  return {
    medianMs: samples[Math.floor(samples.length / 2)]!,
    p99Ms: samples[Math.floor(samples.length * 0.99)]!,
  };
}

/** One connection, one call at a time: `warmup` calls for the JIT, then `count` timed ones. */
export async function sequential(
  target: Target,
  { count, warmup, stream = false }: { count: number; warmup: number; stream?: boolean },
): Promise<Latency> {
  const client = pool(target.origin, 1);
  const payload = body(target.model, stream);
  try {
    for (let i = 0; i < warmup; i++) await call(client, payload);
    const samples: number[] = [];
    for (let i = 0; i < count; i++) {
      const start = performance.now();
      await call(client, payload);
      samples.push(performance.now() - start);
    }
    return summarize(samples);
  } finally {
    await client.close();
  }
}

/** Time to the first byte of a streamed answer's body (its first SSE event), one at a time. */
export async function firstByte(
  target: Target,
  { count, warmup }: { count: number; warmup: number },
): Promise<Latency> {
  const client = pool(target.origin, 1);
  const payload = body(target.model, true);
  const once = async (): Promise<number> => {
    const start = performance.now();
    const answer = await client.request({
      path: '/v1/chat/completions',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: payload,
    });
    let first = 0;
    let text = '';
    for await (const part of answer.body) {
      if (first === 0) first = performance.now() - start;
      text += String(part);
    }
    if (!text.includes('[DONE]')) throw new Error(`a stream without [DONE]: ${text.slice(0, 200)}`);
    return first;
  };
  try {
    for (let i = 0; i < warmup; i++) await once();
    const samples: number[] = [];
    for (let i = 0; i < count; i++) samples.push(await once());
    return summarize(samples);
  } finally {
    await client.close();
  }
}

/** `connections` clients calling back to back for `durationMs`: completed calls per second. */
export async function throughput(
  target: Target,
  {
    connections,
    durationMs,
    stream = false,
  }: { connections: number; durationMs: number; stream?: boolean },
): Promise<{ perSecond: number; calls: number }> {
  const client = pool(target.origin, connections);
  const payload = body(target.model, stream);
  let calls = 0;
  const start = performance.now();
  const until = start + durationMs;
  const worker = async () => {
    while (performance.now() < until) {
      await call(client, payload);
      calls++;
    }
  };
  try {
    await Promise.all(Array.from({ length: connections }, worker));
    return { perSecond: (calls * 1000) / (performance.now() - start), calls };
  } finally {
    await client.close();
  }
}
