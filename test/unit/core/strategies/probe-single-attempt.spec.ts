import { describe, expect, it } from '@jest/globals';
import { PROBE_ATTRIBUTE } from '../../../../src/core/chat/call-attributes.js';
import { ModelRouter } from '../../../../src/core/group/model-router.js';
import { withResilience } from '../../../../src/core/resilience/resilient-chat-model.js';
import { FailoverStrategy } from '../../../../src/core/strategies/failover-strategy.js';
import { answer, fakeModel, kindError, manualClock, request } from './fakes.js';

function setup() {
  const clock = manualClock();
  const down = fakeModel('primary', kindError('transient', 'HTTP 503'));
  const backup = fakeModel('backup');
  const router = new ModelRouter({
    routes: [
      {
        name: 'primary',
        // retries without waiting: the test counts requests, not time
        model: withResilience(down, {
          name: 'primary',
          retry: { maxAttempts: 3, baseDelayMs: 0, maxDelayMs: 0 },
          clock: clock.fn,
        }),
      },
      { name: 'backup', model: backup },
    ],
    routingStrategy: new FailoverStrategy({
      cooldownMs: 10_000,
      halfOpenProbes: 1,
      clock: clock.fn,
    }),
  });
  return { clock, down, backup, router };
}

/** Issue 12, point 5: a half-open probe ran the model's retries (3 requests to a dead provider). */
describe('a half-open probe', () => {
  it('makes one attempt, where an ordinary call makes the model’s three', async () => {
    const { clock, down, router } = setup();
    await router.chat(request);
    expect(down.chat).toHaveBeenCalledTimes(3);

    clock.advance(10_000);
    await expect(router.chat(request)).resolves.toMatchObject(answer('backup'));
    expect(down.chat).toHaveBeenCalledTimes(3 + 1);
    expect(down.calls.at(-1)!.options?.attributes?.[PROBE_ATTRIBUTE]).toBe(true);
  });

  it('is not marked on calls of a closed circuit', async () => {
    const { backup, router } = setup();
    await router.chat(request);
    expect(backup.calls[0]!.options?.attributes?.[PROBE_ATTRIBUTE]).toBeUndefined();
  });
});
