import { afterEach, beforeEach, jest } from '@jest/globals';

/**
 * Registers the hooks of a suite whose timers (and Date.now) are fake from `now` in each test,
 * while promises still settle: nextTick and queueMicrotask stay real, so awaited stores answer
 * without the test advancing time.
 */
export function useFakeTimersFrom(now = 1_000_000): void {
  beforeEach(() => {
    jest.useFakeTimers({ now, doNotFake: ['nextTick', 'queueMicrotask'] });
  });
  afterEach(() => {
    jest.useRealTimers();
  });
}
