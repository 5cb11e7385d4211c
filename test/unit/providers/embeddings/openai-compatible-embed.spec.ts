import { describe, expect, it } from '@jest/globals';
import { ProviderException } from '../../../../src/core/errors/provider-exception.js';
import { openAiCompatibleEmbed } from '../../../../src/providers/embeddings/openai-compatible-embed.js';

function fakeFetch(status: number, body: unknown, headers: Record<string, string> = {}) {
  const requests: { url: string; init: RequestInit }[] = [];
  const doFetch = (async (url: string, init: RequestInit) => {
    requests.push({ url, init });
    return new Response(typeof body === 'string' ? body : JSON.stringify(body), {
      status,
      headers,
    });
  }) as unknown as typeof fetch;
  return { doFetch, requests };
}

describe('openAiCompatibleEmbed', () => {
  it('posts the texts to {baseURL}/embeddings with the key, model and dimensions', async () => {
    const { doFetch, requests } = fakeFetch(200, {
      data: [
        { index: 1, embedding: [0, 1] },
        { index: 0, embedding: [1, 0] },
      ],
    });
    const embed = openAiCompatibleEmbed({
      baseURL: 'http://host/v1/',
      apiKey: 'sk-secret',
      model: 'm',
      dimensions: 2,
      fetch: doFetch,
    });
    expect(await embed(['a', 'b'])).toEqual([
      [1, 0],
      [0, 1],
    ]);
    expect(requests[0]!.url).toBe('http://host/v1/embeddings');
    expect(JSON.parse(requests[0]!.init.body as string)).toEqual({
      model: 'm',
      input: ['a', 'b'],
      encoding_format: 'float',
      dimensions: 2,
    });
    expect((requests[0]!.init.headers as Record<string, string>).authorization).toBe(
      'Bearer sk-secret',
    );
  });

  it('decodes base64 float32 embeddings from servers that ignore encoding_format', async () => {
    const base64 = Buffer.from(new Float32Array([0.5, -2]).buffer).toString('base64');
    const { doFetch } = fakeFetch(200, { data: [{ index: 0, embedding: base64 }] });
    expect(
      await openAiCompatibleEmbed({ baseURL: 'http://h', model: 'm', fetch: doFetch })(['a']),
    ).toEqual([[0.5, -2]]);
  });

  it('an error answer is a ProviderException with status, code, kind and Retry-After, without the key', async () => {
    const { doFetch } = fakeFetch(
      429,
      { error: { message: 'slow down, sk-secret-123456', code: 'rate_limit_exceeded' } },
      { 'retry-after': '3' },
    );
    const embed = openAiCompatibleEmbed({
      baseURL: 'http://h',
      apiKey: 'sk-secret-123456',
      model: 'm',
      fetch: doFetch,
    });
    const error = (await embed(['a']).catch((e: unknown) => e)) as ProviderException;
    expect(error).toBeInstanceOf(ProviderException);
    expect(error.status).toBe(429);
    expect(error.code).toBe('rate_limit_exceeded');
    expect(error.kind).toBe('rate-limited');
    expect(error.retryAfterMs).toBe(3000);
    expect(error.message).toContain('answered 429: slow down');
    expect(error.message).not.toContain('sk-secret-123456');
  });

  it('a malformed success answer is a ProviderException that says what is wrong', async () => {
    const wrongCount = fakeFetch(200, { data: [] });
    await expect(
      openAiCompatibleEmbed({ baseURL: 'http://h', model: 'm', fetch: wrongCount.doFetch })(['a']),
    ).rejects.toThrow('expected 1 embeddings in data[], got 0');
    const notJson = fakeFetch(200, '<html>');
    await expect(
      openAiCompatibleEmbed({ baseURL: 'http://h', model: 'm', fetch: notJson.doFetch })(['a']),
    ).rejects.toThrow(ProviderException);
    const notNumbers = fakeFetch(200, { data: [{ index: 0, embedding: ['x'] }] });
    await expect(
      openAiCompatibleEmbed({ baseURL: 'http://h', model: 'm', fetch: notNumbers.doFetch })(['a']),
    ).rejects.toThrow('data[0].embedding is not a list of numbers');
  });

  it('a network failure is a transient ProviderException', async () => {
    const failing = (async () => {
      throw new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } });
    }) as unknown as typeof fetch;
    const error = (await openAiCompatibleEmbed({ baseURL: 'http://h', model: 'm', fetch: failing })(
      ['a'],
    ).catch((e: unknown) => e)) as ProviderException;
    expect(error).toBeInstanceOf(ProviderException);
    expect(error.kind).toBe('transient');
    expect(error.message).toContain('ECONNREFUSED');
  });
});
