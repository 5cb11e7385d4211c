// The README's src/tracing.ts, run as written: the README's app under the OpenTelemetry Node SDK,
// its first model failing once, traced as one call span over two attempt spans.
import { describe, expect, it, jest } from '@jest/globals';
import { snippetPath, writeSnippets } from './support/markdown.js';

describe("the README's tracing script", () => {
  it('traces a failover as two attempt spans and the call span', async () => {
    writeSnippets('README.md');
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      const { traced } = (await import(snippetPath('README.md', 'src/tracing.ts'))) as {
        traced: string[];
      };
      expect(traced).toEqual(['chat gpt-4o-mini', 'chat gpt-4o', 'model_router.call assistant']);
      expect(log.mock.calls).toEqual([[traced]]);
    } finally {
      log.mockRestore();
    }
    // the app and the SDK start in the test: slow on a loaded machine
  }, 60_000);
});
