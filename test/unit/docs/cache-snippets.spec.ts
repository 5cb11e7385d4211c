import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { buildModelRouterOptions } from 'nest-model-router';
import { parseModelRouterConfig } from 'nest-model-router/config';
import { routerCacheSettings } from 'nest-model-router/core';
import { snippetPath, writeSnippets } from './support/markdown.js';

const PAGE = 'docs/cache.md';
const env = { OPENAI_API_KEY: 'sk-test' };

describe('docs/cache.md: its YAML', () => {
  beforeAll(() => {
    writeSnippets(PAGE);
  });

  it('parses, and gives each router the cache the page says', async () => {
    const yaml = readFileSync(snippetPath(PAGE, 'config/model-router.yaml'), 'utf8');
    const options = await buildModelRouterOptions(parseModelRouterConfig(yaml, { env }));
    const cache = options.cache!;
    expect(routerCacheSettings(cache, 'support')).toEqual({ ttlMs: 300_000 });
    expect(routerCacheSettings(cache, 'faq')).toEqual({
      ttlMs: 3_600_000,
      semantic: { threshold: 0.9 },
    });
    expect(routerCacheSettings(cache, 'agent')).toBeUndefined();
    expect(cache.embeddings).toBeDefined();
  });

  it('names the field of a bad duration', () => {
    const yaml = readFileSync(snippetPath(PAGE, 'config/model-router.yaml'), 'utf8');
    expect(() => parseModelRouterConfig(yaml.replace('ttl: 1h', 'ttl: soon'), { env })).toThrow(
      'routers.faq.cache',
    );
  });
});
