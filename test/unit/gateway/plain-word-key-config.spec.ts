import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadGatewayConfig } from '../../../apps/gateway/src/config/load-gateway-config.js';
import { InvalidConfigurationException } from '../../../src/core/errors/exceptions.js';

describe("the gateway refuses a provider key that is the provider's name, at start", () => {
  it('stops on the demo configuration as it was (ollama: apiKey: ollama), naming the field', async () => {
    const shipped = readFileSync('config/model-router.yaml', 'utf8');
    const before = shipped.replace(
      /( {2}ollama:\n {4}type: openai\n {4}baseURL: .*\n)/,
      '$1    apiKey: ollama\n',
    );
    expect(before).not.toBe(shipped);
    const dir = mkdtempSync(join(tmpdir(), 'plain-key-'));
    try {
      writeFileSync(join(dir, 'gateway.yaml'), before);
      const error = await loadGatewayConfig(join(dir, 'gateway.yaml'), { env: {} }).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(InvalidConfigurationException);
      expect((error as Error).message).toMatch(
        /^providers\.ollama: apiKey is the provider's name 'ollama'.*leave apiKey out/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
