// What building the configuration logs (here: Redis not reachable at start) comes out in the
// gateway's own log format, so a collector reading JSON lines gets no coloured line among them.
import 'reflect-metadata';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, jest } from '@jest/globals';
import { createGatewayApp } from '../../../apps/gateway/src/create-gateway-app.js';

const dir = mkdtempSync(join(tmpdir(), 'gateway-config-logs-'));
const path = join(dir, 'gateway.yaml');
writeFileSync(
  path,
  [
    'models:',
    '  demo: { type: demo }',
    'routers:',
    '  auto: { models: [demo] }',
    // port 1: refused at once, so the store starts local and says so
    "state: { type: redis, url: 'redis://127.0.0.1:1' }",
  ].join('\n'),
);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the gateway started with LOG_FORMAT=json', () => {
  it("logs the configuration's warnings as JSON lines too, on stdout", async () => {
    const written: string[] = [];
    const capture = (chunk: unknown) => {
      written.push(String(chunk));
      return true;
    };
    const stdout = jest.spyOn(process.stdout, 'write').mockImplementation(capture);
    try {
      const app = await createGatewayApp({
        config: path,
        env: { LOG_FORMAT: 'json' },
        accessLog: false,
      });
      await app.close();
    } finally {
      stdout.mockRestore();
    }
    const lines = written.join('').split('\n').filter(Boolean);
    const warning = lines.find((line) => line.includes('is not reachable'));
    expect(warning).toBeDefined();
    expect(JSON.parse(warning!)).toMatchObject({ level: 'warn', context: 'ModelRouter' });
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
  }, 30_000);
});
