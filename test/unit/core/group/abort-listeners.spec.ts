import { describe, expect, it } from '@jest/globals';
import { hasAbortListener, readsListenerMap } from '../../../../src/core/group/abort-listeners.js';
import { HedgePolicy } from '../../../../src/core/group/hedge-policy.js';

const listener = () => undefined;

describe('hasAbortListener (whether a hedge attempt controller may be reused)', () => {
  it('sees a listener while it is registered, and none once it is removed', () => {
    const { signal } = new AbortController();
    expect(hasAbortListener(signal)).toBe(false);
    signal.addEventListener('abort', listener);
    expect(hasAbortListener(signal)).toBe(true);
    signal.removeEventListener('abort', listener);
    expect(hasAbortListener(signal)).toBe(false);
  });

  it("finds this Node's listener map, so the quick answer is in use", () => {
    expect(readsListenerMap).toBe(true);
  });

  it('sees an onabort handler', () => {
    const { signal } = new AbortController();
    // oxlint-disable-next-line unicorn/prefer-add-event-listener -- the handler under test
    signal.onabort = () => undefined;
    expect(hasAbortListener(signal)).toBe(true);
  });

  it('a controller whose attempt left a listener behind is not reused; a clean one is', () => {
    const policy = new HedgePolicy({ after: 100 });
    const leaky = policy.abortFor(undefined);
    leaky.controller.signal.addEventListener('abort', () => undefined);
    leaky.unlink();
    const clean = policy.abortFor(undefined);
    expect(clean).not.toBe(leaky);
    clean.unlink();
    expect(policy.abortFor(undefined)).toBe(clean);
  });
});
