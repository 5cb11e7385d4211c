// The README's src/try-it.ts, run as written: the README's app on a FakeProvider, then broken.
import { describe, expect, it, jest } from '@jest/globals';
import { snippetPath, writeSnippets } from './support/markdown.js';

interface Asked {
  status: number;
  route: string | null;
  retryAfter: string | null;
  body: Record<string, unknown>;
}

describe("the README's try-it script", () => {
  it('answers from the simple route, then 503 with Retry-After once both models are broken', async () => {
    writeSnippets('README.md');
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      const { answered, broken } = (await import(snippetPath('README.md', 'src/try-it.ts'))) as {
        answered: Asked;
        broken: Asked;
      };
      expect(answered).toMatchObject({ status: 200, route: 'simple', retryAfter: null });
      expect(answered.body.text).toBe(
        'You said: What is the capital of France? (model gpt-4o-mini)',
      );
      expect(broken).toMatchObject({
        status: 503,
        retryAfter: '30',
        body: { code: 'models_cooling_down' },
      });
      expect(log.mock.calls).toEqual([[answered], [broken]]);
    } finally {
      log.mockRestore();
    }
  });
});
