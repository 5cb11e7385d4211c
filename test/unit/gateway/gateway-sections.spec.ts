import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadGatewayConfig } from '../../../apps/gateway/src/config/load-gateway-config.js';
import { InvalidModelRouterConfigException } from '../../../src/index.js';

const BASE = `
providers:
  fake: { type: openai, baseURL: 'http://127.0.0.1:1/v1', apiKey: 'upstream-key-123456', models: [gpt-4o*] }
models:
  mini: { provider: fake, model: gpt-4o-mini }
routers:
  auto: { models: [mini] }
`;

function file(yaml: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'gateway-sections-')), 'config.yaml');
  writeFileSync(path, `${BASE}${yaml}`);
  return path;
}

async function problemsOf(yaml: string, env: Record<string, string> = {}): Promise<string[]> {
  try {
    await loadGatewayConfig(file(yaml), { env });
  } catch (error) {
    if (error instanceof InvalidModelRouterConfigException) return [...error.problems];
    throw error;
  }
  return [];
}

describe("the gateway's own sections of the YAML file", () => {
  it('are taken out before the library validates the rest, and kept hashed', async () => {
    const config = await loadGatewayConfig(
      file(`
auth:
  keys: [{ name: team-a, key: '\${TEAM_A_KEY}', routers: [auto], rpm: '60' }]
cors: { origins: ['https://app.example.com'] }
toolCalls: { secret: '\${SECRET}' }
`),
      { env: { TEAM_A_KEY: 'sk-team-a-key-0123456789', SECRET: 'tool-call-secret' } },
    );
    expect(config.auth).toEqual({
      keys: [expect.objectContaining({ name: 'team-a', routers: ['auto'], rpm: 60 })],
    });
    expect(JSON.stringify(config.auth)).not.toContain('sk-team-a-key');
    expect(config.cors).toEqual({ origins: ['https://app.example.com'] });
    expect(config.toolCallSecret).toBe('tool-call-secret');
    expect(config.providerModels).toEqual({ fake: ['gpt-4o*'] });
    expect(config.secrets).toEqual(
      expect.arrayContaining(['upstream-key-123456', 'sk-team-a-key-0123456789']),
    );
  });

  it('list every problem by path, with the library’s, and never a key', async () => {
    const problems = await problemsOf(
      `
defaultRouter: nope
auth:
  keys:
    - { name: team-a, key: short }
    - { name: team-a, key: 'sk-long-enough-key-0001', sha256: 'abc' }
    - { name: 'bad name', key: 'sk-long-enough-key-0002', routers: [internal], color: red }
    - { name: b, sha256: '${'a'.repeat(64)}', providerModels: [other/x, nope], budget: { limitUsd: 5, period: monthly } }
  adminKeys: [{ name: ops }]
cors: { origins: ['app.example.com'] }
`,
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        "defaultRouter: unknown router 'nope'; known routers: 'auto'",
        'auth.keys[0].key: must be at least 16 characters long (e.g. `openssl rand -hex 24`)',
        'auth.keys[1].sha256: must be 64 hex digits (`sha256sum` of the key)',
        "auth.keys[1]: give exactly one of key (e.g. '${TEAM_KEY}') or sha256",
        "auth.keys[1].name: 'team-a' is used twice",
        'auth.keys[2].name: must be letters, digits, _ . - (it appears in logs)',
        'auth.keys[2].color: unknown setting; known: name, key, sha256, routers, models, providerModels, rpm, tpm, budget',
        "auth.keys[2].routers[0]: unknown router 'internal'; known routers: 'auto'",
        "auth.keys[3].providerModels[0]: unknown provider 'other'; known providers: 'fake'",
        'auth.keys[3].providerModels[1]: must be provider/model-id (globs allowed, e.g. openai/gpt-4o*)',
        'auth.keys[3].budget.period: must be one of the following values: 1h, 1d, 7d, 30d',
        "auth.adminKeys[0]: give exactly one of key (e.g. '${TEAM_KEY}') or sha256",
        "cors.origins[0]: must be '*' or scheme://host[:port], e.g. https://app.example.com",
      ]),
    );
    expect(problems.join('\n')).not.toContain('sk-long-enough');
  });

  it('an unset key variable names the variable, and `auth: {}` says what to add', async () => {
    expect(await problemsOf(`auth: { keys: [{ name: a, key: '\${TEAM_A_KEY}' }] }`)).toContain(
      'auth.keys[0].key: environment variable TEAM_A_KEY is not set; set it or write ${TEAM_A_KEY:-default}',
    );
    expect(await problemsOf('auth: {}')).toEqual([
      'auth: list at least one key under keys (or write `auth: none` to serve without)',
    ]);
    expect((await loadGatewayConfig(file('auth: none'))).auth).toBe('none');
  });
  it('server.maxConnections: a whole number >= 1, kept; anything else named by path', async () => {
    expect((await loadGatewayConfig(file('server: { maxConnections: 64 }'))).maxConnections).toBe(
      64,
    );
    expect((await loadGatewayConfig(file(''))).maxConnections).toBeUndefined();
    const problems = await problemsOf('server: { maxConnections: 0, maxSockets: 1 }');
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^server\.maxConnections: /),
        expect.stringMatching(/^server\.maxSockets: unknown setting; known: maxConnections/),
      ]),
    );
  });
});
