import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { createGatewayApp } from '../../../apps/gateway/src/create-gateway-app.js';

/**
 * Issue 12, point 9: a provider baseURL with credentials answered every request with a 502 whose
 * body (and WARN line) held the password: fetch refuses such URLs, quoting them.
 */
describe('a provider baseURL with credentials', () => {
  it('stops the start, naming the field and never the password', async () => {
    const failure = (await createGatewayApp({
      logger: false,
      env: { OLLAMA_BASE_URL: 'http://admin:s3cret-pw@127.0.0.1:11434/v1' },
    }).catch((error: unknown) => error)) as Error;

    expect(failure.message).toContain('providers.ollama.baseURL: must not include credentials');
    expect(failure.message).not.toContain('s3cret-pw');
    expect(failure.stack).not.toContain('s3cret-pw');
  });
});
