import { describe, expect, it } from '@jest/globals';
import { AimdLimit } from '../../../../src/core/limits/aimd-limit.js';
import { LatencyRounds } from '../../../../src/core/limits/latency-rounds.js';

function adaptive(start: number): AimdLimit {
  const limit = new AimdLimit({ adaptive: true, max: 100 });
  // grow it to `start` under steady load
  while (limit.limit < start) round(limit);
  return limit;
}

/** Takes every slot there is. */
function fill(limit: AimdLimit): void {
  while (limit.tryAcquire());
}

/** One round under steady load: `limit` calls answer, each replaced at once by a new one. */
function round(limit: AimdLimit, latencyMs = 20): void {
  fill(limit);
  for (let i = limit.limit; i > 0; i -= 1) {
    limit.release('success', latencyMs);
    limit.tryAcquire();
  }
  while (limit.inFlight > 0) limit.release('other');
}

/** A probe refused: the limit is full and the provider refuses the call taken last. */
function refuseAtLimit(limit: AimdLimit): void {
  fill(limit);
  const last = limit.lastTicket;
  limit.release('overload', 20, last);
  while (limit.inFlight > 0) limit.release('other');
}

describe('AimdLimit rules', () => {
  it('grows only when the limit was reached', () => {
    const limit = new AimdLimit({ adaptive: true, max: 100 });
    for (let i = 0; i < 40; i += 1) {
      limit.tryAcquire();
      limit.release('success', 20); // one call at a time: a limit of 4 never tested
    }
    expect(limit.limit).toBe(4);
    round(limit);
    expect(limit.limit).toBe(5);
  });

  it('shrinks to 90 % of the calls in flight when the provider refused, a quarter at most', () => {
    const limit = adaptive(20);
    fill(limit);
    limit.release('overload', 20, limit.lastTicket);
    expect(limit.limit).toBe(18); // 20 in flight × 0.9, not 20 × 0.75 = 15

    const quiet = adaptive(20);
    quiet.tryAcquire();
    quiet.release('overload', 20, quiet.lastTicket);
    expect(quiet.limit).toBe(15); // one call in flight: by a quarter, not to 1
  });

  it('counts a refusal of a call started after the last decrease, not one started before', () => {
    const limit = adaptive(10);
    fill(limit);
    const before = limit.lastTicket;
    limit.release('overload', 20, before);
    expect(limit.limit).toBe(9);
    limit.release('overload', 20, before - 1); // in flight at the decrease
    expect(limit.limit).toBe(9);
    while (limit.inFlight > 0) limit.release('other');
    limit.tryAcquire();
    limit.release('overload', 20, limit.lastTicket); // started since: news
    expect(limit.limit).toBeLessThan(9);
  });

  it('counts a retried 429 of an unknown call only once a round has started since the decrease', () => {
    const limit = adaptive(10);
    fill(limit);
    limit.overloaded();
    expect(limit.limit).toBe(9);
    limit.overloaded(); // nothing new has started
    expect(limit.limit).toBe(9);
    while (limit.inFlight > 1) limit.release('other');
    for (let i = 0; i < 7; i += 1) {
      limit.tryAcquire();
      limit.release('other');
    }
    limit.overloaded(); // 7 started since: not yet a round of 9
    expect(limit.limit).toBe(9);
    fill(limit);
    limit.overloaded();
    expect(limit.limit).toBe(8); // 9 in flight × 0.9
  });

  it('waits longer before each probe of a level the provider refused again', () => {
    const limit = adaptive(9);
    refuseAtLimit(limit);
    expect(limit.limit).toBe(8);
    const roundsToReach9 = () => {
      let rounds = 0;
      while (limit.limit < 9) {
        round(limit);
        rounds += 1;
      }
      return rounds;
    };
    expect(roundsToReach9()).toBe(2);
    refuseAtLimit(limit);
    expect(roundsToReach9()).toBe(4);
    refuseAtLimit(limit);
    expect(roundsToReach9()).toBe(8);
    // a whole round at 9 without a refusal: 10 is the next probe, half as patient
    round(limit);
    expect(limit.limit).toBe(9);
    let rounds = 1;
    while (limit.limit < 10) {
      round(limit);
      rounds += 1;
    }
    expect(rounds).toBe(4);
  });

  it('does not grow while a call refused with a 429 waits to retry in its slot', () => {
    let now = 0;
    const limit = new AimdLimit({ adaptive: true, max: 100 }, 'concurrency', () => now);
    fill(limit);
    limit.release('other');
    limit.tryAcquire();
    limit.overloaded(300); // a round has started: it counts, and the call retries in 300 ms
    expect(limit.limit).toBe(3);
    round(limit);
    round(limit);
    expect(limit.limit).toBe(3); // two rounds would have done for the probe back to 4
    now = 300;
    round(limit);
    round(limit);
    expect(limit.limit).toBe(4);
  });

  it('never waits more than 32 rounds for a probe', () => {
    const limit = adaptive(9);
    for (let i = 0; i < 8; i += 1) {
      refuseAtLimit(limit);
      while (limit.limit < 9) round(limit);
    }
    refuseAtLimit(limit);
    let rounds = 0;
    while (limit.limit < 9) {
      round(limit);
      rounds += 1;
    }
    expect(rounds).toBe(32);
  });
});

/** Feeds answers to the signal, rounds of 4; what it says after each. */
const rounds = (signal: LatencyRounds, latencies: number[]) =>
  latencies.map((ms) => signal.slowerThanBaseline(ms, 4));

describe('LatencyRounds', () => {
  it('does not shrink on one slow answer, nor on one slow round', () => {
    const signal = new LatencyRounds();
    rounds(signal, Array(20).fill(20));
    expect(rounds(signal, [20, 900, 20, 20])).not.toContain(true); // fastest of the round: 20
    expect(rounds(signal, [90, 90, 90, 90])).not.toContain(true); // a pause of ours
    expect(rounds(signal, [20, 20, 20, 20])).not.toContain(true);
  });

  it('shrinks when two rounds in a row are over twice the baseline', () => {
    const signal = new LatencyRounds();
    rounds(signal, Array(20).fill(20));
    expect(rounds(signal, [50, 60, 50, 70]).at(-1)).toBe(false);
    expect(rounds(signal, [50, 60, 50, 70]).at(-1)).toBe(true);
  });

  it('a lasting change of latency becomes the baseline', () => {
    const signal = new LatencyRounds();
    rounds(signal, Array(20).fill(20));
    const verdicts = rounds(signal, Array(400).fill(60));
    expect(verdicts.slice(-200)).not.toContain(true);
  });

  it('an adaptive limit shrinks on slow rounds', () => {
    const limit = adaptive(8);
    for (let i = 0; i < 5; i += 1) round(limit, 20);
    const before = limit.limit;
    round(limit, 100);
    round(limit, 100);
    expect(limit.limit).toBeLessThan(before);
  });
});
