import 'reflect-metadata';
import { beforeEach, describe, expect, it } from '@jest/globals';
import type { ChatResponse } from '../../../src/core/chat/response.js';
import {
  FaultStack,
  RETRY,
  expectedAnswer,
  fallback,
  primary,
  useFaultStacks,
} from './fault-fixture.js';

/**
 * A primary that goes down for a while and comes back. The breaker's clock is virtual: the test
 * moves it forward between requests, so a 10 s cooldown costs no real time.
 */

const COOLDOWN = 10_000;
const STEP = 2_000;

const served = (responses: ChatResponse[]) => responses.map((response) => response.modelName);

describe('a flapping primary (half-open with one probe, escalating cooldown)', () => {
  const faults = useFaultStacks(FaultStack);
  let stack: FaultStack;
  beforeEach(async () => {
    stack = await faults.start({
      // outages here are 503s, never silence: bounds a busy machine cannot trip on a healthy call
      models: [
        primary({ timeouts: { attemptMs: 5_000, firstTokenMs: 5_000, idleMs: 2_000 } }),
        fallback(),
      ],
      failover: { cooldownMs: COOLDOWN, halfOpenProbes: 1, cooldownMultiplier: 2 },
    });
  });

  /** `count` concurrent calls at the current virtual time. */
  async function burst(count: number): Promise<ChatResponse[]> {
    return Promise.all(Array.from({ length: count }, () => stack.chat()));
  }

  it('is avoided during the outage, probed once per cooldown, and gets its traffic back after it recovers', async () => {
    // healthy: the primary serves
    expect(served(await burst(3))).toEqual(Array(3).fill('gpt-primary'));

    // outage begins: the first call finds it down, fails over, and opens its circuit
    faults.provider.setFault('gpt-primary', 'fault-503');
    stack.clearRecords();
    const outageStart = stack.now;
    const first = await stack.chat();
    expect(first.modelName).toBe('gpt-fallback');
    expect(first.aiMessage.text).toBe(expectedAnswer('gpt-fallback'));
    expect(stack.seen('primary').count).toBe(RETRY.maxAttempts);
    expect(stack.circuit('primary')).toMatchObject({
      state: 'open',
      cooldownUntil: outageStart + COOLDOWN,
    });

    // health sees it too, on the same clock
    expect(stack.router.inspectModels()).toEqual([
      expect.objectContaining({
        model: 'primary',
        state: 'cooldown',
        cooldownUntil: outageStart + COOLDOWN,
        lastError: expect.objectContaining({ name: 'ProviderException' }),
      }),
      expect.objectContaining({ model: 'fallback', state: 'available' }),
    ]);

    // during the cooldown every request goes to the fallback; the primary hears nothing
    for (stack.advance(STEP); stack.now < outageStart + COOLDOWN; stack.advance(STEP)) {
      expect(served(await burst(5))).toEqual(Array(5).fill('gpt-fallback'));
    }
    expect(stack.seen('primary').count).toBe(RETRY.maxAttempts);

    // the cooldown ends while it is still down: of a burst, exactly one request probes it; the
    // probe fails, every request is still answered by the fallback, and the next cooldown doubles
    expect(stack.now).toBe(outageStart + COOLDOWN);
    const probed = await burst(5);
    expect(served(probed)).toEqual(Array(5).fill('gpt-fallback'));
    expect(stack.eventsOf('model-failed').filter((e) => e.model === 'primary')).toHaveLength(2);
    // the probe is one request, not a retried call (issue 12)
    expect(stack.seen('primary').count).toBe(RETRY.maxAttempts + 1);
    const reopenedAt = stack.now;
    expect(stack.circuit('primary')).toMatchObject({
      state: 'open',
      cooldownUntil: reopenedAt + 2 * COOLDOWN,
    });

    // it recovers mid-cooldown; until the cooldown ends nobody notices, then the probe succeeds
    // and the primary has its traffic back, within one (the current) cooldown of recovering
    stack.advance(STEP);
    faults.provider.setFault('gpt-primary', 'none');
    const recoveredAt = stack.now;
    let backAt: number | undefined;
    let firstBack: ChatResponse[] = [];
    while (backAt === undefined && stack.now <= recoveredAt + 2 * COOLDOWN) {
      const responses = await burst(5);
      if (responses.some((r) => r.modelName === 'gpt-primary')) {
        backAt = stack.now;
        firstBack = responses;
      } else stack.advance(STEP);
    }
    expect(backAt).toBeDefined();
    expect(backAt! - recoveredAt).toBeLessThanOrEqual(2 * COOLDOWN);
    expect(backAt).toBe(reopenedAt + 2 * COOLDOWN);
    // that burst: one successful probe, the rest still on the fallback while it was in flight
    expect(served(firstBack).toSorted()).toEqual([
      'gpt-fallback',
      'gpt-fallback',
      'gpt-fallback',
      'gpt-fallback',
      'gpt-primary',
    ]);
    expect(stack.circuit('primary').state).toBe('closed');
    expect(stack.router.inspectModels()[0]).toMatchObject({ model: 'primary', state: 'available' });

    // all of the next burst goes to the primary, and the escalation is reset
    expect(served(await burst(5))).toEqual(Array(5).fill('gpt-primary'));
    expect(stack.eventsOf('circuit-changed').map((e) => `${e.from}->${e.to}`)).toEqual([
      'closed->open',
      'open->half-open',
      'half-open->open',
      'open->half-open',
      'half-open->closed',
    ]);

    // a second outage starts over from the base cooldown
    faults.provider.setFault('gpt-primary', 'fault-503');
    await stack.chat();
    expect(stack.circuit('primary').cooldownUntil).toBe(stack.now + COOLDOWN);
  });
});
