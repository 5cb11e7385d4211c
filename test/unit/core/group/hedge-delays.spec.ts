import { describe, expect, it } from '@jest/globals';
import { HedgeDelays } from '../../../../src/core/group/hedge-delays.js';
import { manualTimers } from '../../../support/manual-timers.js';

describe('HedgeDelays', () => {
  it('fires an entry when due, and never one removed before', () => {
    const time = manualTimers();
    const delays = new HedgeDelays(time.timers, time.clock);
    const fired: string[] = [];
    const early = delays.add(time.clock() + 100, () => fired.push('early'));
    delays.add(time.clock() + 100, () => fired.push('late'));
    delays.remove(early);
    time.advance(99);
    expect(fired).toEqual([]);
    time.advance(1);
    expect(fired).toEqual(['late']);
    expect(delays.size()).toBe(0);
  });

  it('serves many calls with one timer: adding and removing arms nothing new', () => {
    const time = manualTimers();
    const delays = new HedgeDelays(time.timers, time.clock);
    for (let i = 0; i < 1_000; i += 1) {
      const entry = delays.add(time.clock() + 50, () => {
        throw new Error('answered before its delay');
      });
      delays.remove(entry);
    }
    expect(time.armed()).toBe(1);
    time.advance(50); // fires once, finds nothing, stops
    expect(time.pending()).toBe(0);
    expect(delays.size()).toBe(0);
  });

  it('fires in deadline order when a shorter delay is added after a longer one', () => {
    const time = manualTimers();
    const delays = new HedgeDelays(time.timers, time.clock);
    const fired: string[] = [];
    delays.add(time.clock() + 300, () => fired.push('300'));
    delays.add(time.clock() + 100, () => fired.push('100')); // re-arms earlier
    delays.add(time.clock() + 200, () => fired.push('200'));
    time.advance(100);
    expect(fired).toEqual(['100']);
    time.advance(200);
    expect(fired).toEqual(['100', '200', '300']);
    expect(time.pending()).toBe(0);
  });

  it('an entry added while another fires is kept and fired in its turn', () => {
    const time = manualTimers();
    const delays = new HedgeDelays(time.timers, time.clock);
    const fired: string[] = [];
    delays.add(time.clock() + 10, () => {
      fired.push('first');
      delays.add(time.clock() + 10, () => fired.push('second'));
    });
    time.advance(10);
    expect(fired).toEqual(['first']);
    time.advance(10);
    expect(fired).toEqual(['first', 'second']);
  });
});
