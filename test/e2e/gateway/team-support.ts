import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from '@jest/globals';
import OpenAI from 'openai';
import type { GatewayAppOptions } from '../../../apps/gateway/src/create-gateway-app.js';
import { FakeProvider } from '../../../src/testing/index.js';
import { startGateway, type RunningGateway } from './gateway-harness.js';

export const TEAM_FIXTURE = new URL('./fixtures/team.yaml', import.meta.url).pathname;

/** Keys of the team fixture: long, unique, never to be seen in any output. */
export const KEYS = {
  teamA: 'sk-team-a-0123456789abcdef-canary',
  teamB: 'sk-team-b-fedcba9876543210-canary',
  ops: 'sk-ops-admin-00112233445566-canary',
  upstream: 'fake-upstream-key-for-team-tests',
};

export function teamEnv(
  fake: FakeProvider,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    FAKE_BASE_URL: fake.openaiBaseURL,
    FAKE_API_KEY: KEYS.upstream,
    TEAM_A_KEY: KEYS.teamA,
    TEAM_B_SHA256: createHash('sha256').update(KEYS.teamB).digest('hex'),
    OPS_KEY: KEYS.ops,
    ...extra,
  };
}

/** The team fixture with extra YAML appended (e.g. a Redis state store), in a temporary file. */
export function teamFixtureWith(extraYaml: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'gateway-team-'));
  const path = join(dir, 'team.yaml');
  writeFileSync(path, `${readFileSync(TEAM_FIXTURE, 'utf8')}\n${extraYaml}\n`);
  return path;
}

export function clientWith(url: string, apiKey: string): OpenAI {
  return new OpenAI({ baseURL: `${url}/v1`, apiKey, maxRetries: 0 });
}

export function authed(key: string, init: RequestInit = {}): RequestInit {
  return {
    ...init,
    headers: { authorization: `Bearer ${key}`, ...(init.headers as Record<string, string>) },
  };
}

export function chatBody(model: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ model, messages: [{ role: 'user', content: 'hello there' }], ...extra });
}

/**
 * A FakeProvider and a gateway on it for the enclosing `describe`: started before its tests
 * (`options` may prepare the fake, e.g. its answers, and name the configuration), closed after.
 */
export function useFakeGateway(
  options: (fake: FakeProvider) => GatewayAppOptions | Promise<GatewayAppOptions> = (fake) => ({
    config: TEAM_FIXTURE,
    env: teamEnv(fake),
  }),
): { readonly fake: FakeProvider; readonly gateway: RunningGateway } {
  let fake: FakeProvider | undefined;
  let gateway: RunningGateway | undefined;
  beforeAll(async () => {
    fake = await FakeProvider.start({ apiKey: KEYS.upstream });
    gateway = await startGateway(await options(fake));
  });
  afterAll(async () => {
    await gateway?.close();
    await fake?.close();
  });
  return {
    get fake() {
      return fake!;
    },
    get gateway() {
      return gateway!;
    },
  };
}
