import { afterAll, beforeAll, beforeEach } from '@jest/globals';
import { FakeProvider, type FakeProviderOptions } from '../../src/testing/index.js';

export interface FakeProviderHandle {
  /** The describe block's fake provider on 127.0.0.1: started once, reset before each test. */
  readonly provider: FakeProvider;
}

/**
 * Registers the hooks of a suite that talks to the project's fake provider: one for the describe
 * block (closed at its end), its requests, faults and scripted answers forgotten before each test.
 */
export function useFakeProvider(options: FakeProviderOptions = {}): FakeProviderHandle {
  let provider: FakeProvider | undefined;

  beforeAll(async () => {
    provider = await FakeProvider.start(options);
  });
  afterAll(async () => {
    await provider?.close();
  });
  beforeEach(() => provider?.reset());

  return {
    get provider() {
      if (!provider) throw new Error('the fake provider starts in beforeAll: use it inside a test');
      return provider;
    },
  };
}

/** Yields to the event loop until the provider has received a request for `model`. */
export async function untilRequested(provider: FakeProvider, model: string): Promise<void> {
  while (provider.requests.count(model) === 0) await new Promise((r) => setImmediate(r));
}
