import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import type { TimeoutPhase } from '../../../../src/core/errors/timeout-exception.js';
import { PhaseTimer } from '../../../../src/core/resilience/phase-timer.js';
import { systemTimers } from '../../../../src/core/resilience/timers.js';

beforeEach(() => {
  jest.useFakeTimers({ now: 0 });
});
afterEach(() => {
  jest.useRealTimers();
});

function phaseTimer(clock: () => number = () => Date.now()) {
  const expired: { phase: TimeoutPhase; ms: number; at: number }[] = [];
  const timer = new PhaseTimer(systemTimers, clock, (phase, ms) =>
    expired.push({ phase, ms, at: Date.now() }),
  );
  return {
    timer,
    expired,
    arm: (phase: TimeoutPhase, ms: number) => timer.arm(phase, ms, clock()),
  };
}

describe('PhaseTimer', () => {
  it('expires exactly `ms` after the last re-arm, with one timer running throughout', () => {
    const { timer, expired, arm } = phaseTimer();
    arm('idle', 1000);
    for (let event = 0; event < 3; event++) {
      jest.advanceTimersByTime(400);
      timer.disarm(); // the event is handed on…
      arm('idle', 1000); // …and the next one awaited
      expect(jest.getTimerCount()).toBe(1);
    }
    jest.advanceTimersByTime(999);
    expect(expired).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(expired).toEqual([{ phase: 'idle', ms: 1000, at: 2200 }]);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('never expires while disarmed, and its timer then ends', () => {
    const { timer, expired, arm } = phaseTimer();
    arm('idle', 100);
    timer.disarm();
    jest.advanceTimersByTime(10_000);
    expect(expired).toEqual([]);
    expect(jest.getTimerCount()).toBe(0);
    arm('idle', 100);
    jest.advanceTimersByTime(100);
    expect(expired).toEqual([{ phase: 'idle', ms: 100, at: 10_100 }]);
  });

  it('expires a shorter phase armed after a longer one on time', () => {
    const { timer, expired, arm } = phaseTimer();
    arm('first-token', 5000);
    jest.advanceTimersByTime(10);
    timer.disarm();
    arm('idle', 100);
    jest.advanceTimersByTime(100);
    expect(expired).toEqual([{ phase: 'idle', ms: 100, at: 110 }]);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('stop clears the running timer', () => {
    const { timer, expired, arm } = phaseTimer();
    arm('attempt', 100);
    timer.stop();
    expect(jest.getTimerCount()).toBe(0);
    jest.advanceTimersByTime(1000);
    expect(expired).toEqual([]);
  });

  it('still expires when the clock does not follow the timers', () => {
    const { expired, arm } = phaseTimer(() => 0);
    arm('idle', 1000);
    jest.advanceTimersByTime(500);
    arm('idle', 1000);
    jest.advanceTimersByTime(5000);
    expect(expired).toHaveLength(1);
    expect(jest.getTimerCount()).toBe(0);
  });
});
