import 'reflect-metadata';
import { beforeEach, describe, expect, it } from '@jest/globals';
import { NoMatchingModelFoundException } from '../../../src/core/errors/exceptions.js';
import { ProviderException } from '../../../src/core/errors/provider-exception.js';
import {
  COOLDOWN_MS,
  FaultStack,
  RETRY,
  expectedAnswer,
  rejectionOf,
  useFaultStacks,
} from './fault-fixture.js';

/** Every model of the group down: a clear error with a retry hint, then no hammering. */
describe('every model down', () => {
  const faults = useFaultStacks(FaultStack);
  beforeEach(() => {
    faults.provider.setFault('gpt-primary', 'fault-503');
    faults.provider.setFault('gpt-fallback', 'fault-503');
  });

  it('fails with every error, then fails fast with the earliest cooldown end, and recovers after it', async () => {
    const stack = await faults.start();

    const error = await rejectionOf(stack.chat());
    expect(error).toBeInstanceOf(NoMatchingModelFoundException);
    const exhausted = error as NoMatchingModelFoundException;
    expect(exhausted.errors).toHaveLength(2);
    for (const each of exhausted.errors) expect(each).toMatchObject({ status: 503 });
    expect(exhausted.errors[0]).toBeInstanceOf(ProviderException);
    expect(exhausted.message).toContain('primary');
    expect(exhausted.message).toContain('fallback');
    expect(stack.seen('primary').count).toBe(RETRY.maxAttempts);
    expect(stack.seen('fallback').count).toBe(RETRY.maxAttempts);

    // both cool down: the next call fails at once, telling when to come back; nobody is called
    stack.advance(1_000);
    const fast = await rejectionOf(stack.chat());
    expect(fast).toBeInstanceOf(NoMatchingModelFoundException);
    expect((fast as NoMatchingModelFoundException).retryAfterMs).toBe(COOLDOWN_MS - 1_000);
    expect((fast as Error).message).toContain('cooling down');
    expect(faults.provider.requests.count()).toBe(2 * RETRY.maxAttempts);
    expect(stack.eventsOf('router-exhausted').at(-1)).toMatchObject({
      retryAfterMs: COOLDOWN_MS - 1_000,
    });

    // streams fail the same way, before any output
    const streamed = await stack.stream();
    expect(streamed.events).toEqual([]);
    expect(streamed.error).toBeInstanceOf(NoMatchingModelFoundException);

    // they recover; once the cooldown is over the primary is probed and answers
    faults.provider.clearFaults();
    stack.advance(COOLDOWN_MS);
    const response = await stack.chat();
    expect(response.aiMessage.text).toBe(expectedAnswer('gpt-primary'));
  });

  it("with whenAllOpen 'try-oldest', a cooling-down model is tried instead of failing fast", async () => {
    const stack = await faults.start({
      failover: { whenAllOpen: 'try-oldest' },
    });
    await rejectionOf(stack.chat());
    faults.provider.clearFaults();
    stack.clearRecords();
    stack.advance(1_000);

    // both circuits are open for another 59 s, yet the call is served, by the model whose
    // circuit opened first; its success closes the circuit
    const response = await stack.chat();
    expect(response.modelName).toBe('gpt-primary');
    expect(stack.seen('fallback').count).toBe(0);
    expect(stack.circuit('primary').state).toBe('closed');
    expect(stack.circuit('fallback').state).toBe('open');
  });
});
