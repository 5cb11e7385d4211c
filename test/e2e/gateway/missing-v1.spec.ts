// A gateway on a YAML file whose Ollama provider lacks its /v1, with durations written with
// units: the file loads, and the caller's answer to the first request says what went wrong.
import 'reflect-metadata';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { postJson, startGateway, user, type RunningGateway } from './gateway-harness.js';

const dir = mkdtempSync(join(tmpdir(), 'gateway-missing-v1-'));

describe('a provider whose baseURL lacks /v1, in a file with durations in words', () => {
  const asked: string[] = [];
  let ollama: Server;
  let gateway: RunningGateway;

  beforeAll(async () => {
    ollama = createServer((req, res) => {
      asked.push(`${req.method} ${req.url}`);
      req.resume();
      req.on('end', () => {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('404 page not found');
      });
    });
    await new Promise<void>((resolve) => ollama.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(ollama.address() as AddressInfo).port}`;
    const path = join(dir, 'gateway.yaml');
    writeFileSync(
      path,
      [
        'providers:',
        `  ollama: { type: openai, baseURL: '${origin}', timeoutMs: 5s }`,
        'models:',
        "  local: { provider: ollama, model: llama3, resilience: { timeouts: { attemptMs: '30s' } } }",
        'routers:',
        '  auto: { models: [local], cooldownMs: 2s, sessionTtlMs: 30m }',
      ].join('\n'),
    );
    gateway = await startGateway({ config: path });
  }, 30_000);

  afterAll(async () => {
    await gateway.close();
    ollama.closeAllConnections();
    await new Promise((resolve) => ollama.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers the first request with the path asked for and the hint, once asked', async () => {
    const response = await postJson(`${gateway.url}/v1/chat/completions`, {
      model: 'auto',
      messages: [user('hi')],
    });
    const body = (await response.json()) as { error: { message: string; code: string } };

    // its one model failed and cools down (2s): the first 503 says why
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('2');
    expect(body.error.code).toBe('models_cooling_down');
    expect(body.error.message).toContain(
      'HTTP 404: 404 page not found (POST /chat/completions; is /v1 missing from baseURL?)',
    );
    // a configuration fault: no retry on the model
    expect(asked).toEqual(['POST /chat/completions']);
  });
});
