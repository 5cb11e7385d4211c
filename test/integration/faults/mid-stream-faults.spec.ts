import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { ProviderException } from '../../../src/core/errors/provider-exception.js';
import { ModelTimeoutException } from '../../../src/core/errors/timeout-exception.js';
import { StreamInterruptedException } from '../../../src/core/errors/stream-interrupted.exception.js';
import {
  FaultStack,
  PRIMARY_TIMEOUTS,
  completions,
  expectedAnswer,
  failureOf,
  fallback,
  primary,
  textOf,
  useFaultStacks,
} from './fault-fixture.js';

/**
 * Faults that strike after part of the answer reached the caller. The only honest rescues are a
 * seamless continuation by a prefill-capable fallback, or an error naming the original failure;
 * a cut-off answer never completes as a success.
 */

const FULL = expectedAnswer('gpt-primary');
/** The first `n` tokens of the primary's answer, as the fake provider splits it. */
const firstTokens = (n: number) =>
  FULL.match(/\s*\S+/g)!
    .slice(0, n)
    .join('');

interface MidStreamCase {
  title: string;
  fault: string;
  /** What the caller has received when the primary fails. */
  partial: string;
  /** The original failure, as the interruption names it. */
  original: (error: unknown) => void;
}

const isProviderError = (code: string | RegExp) => (error: unknown) => {
  expect(error).toBeInstanceOf(ProviderException);
  expect((error as ProviderException).code).toMatch(code);
  expect((error as ProviderException).kind).toBe('transient');
};

const CASES: MidStreamCase[] = [
  {
    title: 'stream cut after 3 tokens (connection destroyed)',
    fault: 'fault-cut-after-3',
    partial: firstTokens(3),
    original: isProviderError(/^(stream_truncated|connection_interrupted)$/),
  },
  {
    title: 'stream stalled after 3 tokens (connection left open)',
    fault: 'fault-stall-after-3',
    partial: firstTokens(3),
    original: (error) => {
      expect(error).toBeInstanceOf(ModelTimeoutException);
      expect(error).toMatchObject({ phase: 'idle', timeoutMs: PRIMARY_TIMEOUTS.idleMs });
    },
  },
  {
    title: 'an error event inside the stream after 3 tokens',
    fault: 'fault-error-after-3',
    partial: firstTokens(3),
    original: (error) => {
      expect(error).toBeInstanceOf(ProviderException);
      expect((error as Error).message).toContain('failed mid-stream');
    },
  },
  {
    title: 'a malformed SSE chunk after the first token (policy: fail)',
    fault: 'fault-malformed-chunk',
    partial: firstTokens(1),
    original: isProviderError('malformed_stream_chunk'),
  },
];

/** The primary was asked once, nothing else was tried, and its circuit stayed closed. */
function expectNoRetryFailoverOrCooldown(stack: FaultStack): void {
  expect(stack.seen('primary').count).toBe(1);
  expect(stack.seen('fallback').count).toBe(0);
  expect(stack.circuit('primary').state).toBe('closed');
}

describe('mid-stream faults through RoutingChatService', () => {
  const faults = useFaultStacks(FaultStack);

  describe.each(CASES)('$title', (fault) => {
    it('is continued seamlessly by the prefill-capable fallback: one whole answer', async () => {
      const stack = await faults.start();
      faults.provider.setFault('gpt-primary', fault.fault);

      const { events, error } = await stack.stream();

      expect(error).toBeUndefined();
      const done = completions(events);
      expect(done).toHaveLength(1);
      // one seamless answer: the primary's start, the fallback's continuation, nothing repeated
      const whole = expectedAnswer('gpt-fallback');
      expect(textOf(events)).toBe(whole);
      expect(done[0]!.aiMessage.text).toBe(whole);
      expect(textOf(events)).not.toContain('MALFORMED');
      expect(done[0]!.modelName).toBe('gpt-fallback');
      expect(done[0]!.tokenUsage?.totalTokens).toBeGreaterThan(0);
      // the primary was asked once (output had started: no retry); the fallback got the
      // conversation with the partial answer as a trailing assistant message
      expect(stack.seen('primary').count).toBe(1);
      expect(stack.seen('fallback').count).toBe(1);
      const sent = stack.seen('fallback').bodies[0] as {
        messages: { role: string; content: unknown }[];
      };
      expect(sent.messages.at(-1)).toEqual({ role: 'assistant', content: fault.partial });
      fault.original(stack.modelErrors[0]!.error);

      // and the system answers the next call (the primary cools down; the fallback serves)
      faults.provider.setFault('gpt-primary', 'none');
      const next = await stack.stream();
      expect(next.error).toBeUndefined();
      expect(completions(next.events)[0]!.modelName).toBe('gpt-fallback');
      expect(stack.seen('primary').count).toBe(1);
    });

    it('without a prefill-capable fallback, ends with StreamInterruptedException naming the original failure', async () => {
      const stack = await faults.start({ models: [primary(), fallback({ prefill: false })] });
      faults.provider.setFault('gpt-primary', fault.fault);

      const { events, error } = await stack.stream();

      expect(completions(events)).toEqual([]);
      expect(textOf(events)).toBe(fault.partial);
      expect(error).toBeInstanceOf(StreamInterruptedException);
      const interrupted = error as StreamInterruptedException;
      expect(interrupted.model).toBe('primary');
      expect(interrupted.partialLength).toBe(fault.partial.length);
      fault.original(interrupted.cause);
      expect(interrupted.message).toContain((interrupted.cause as Error).message);
      expect(interrupted.message).toContain('ASSISTANT_PREFILL');
      // nothing else was tried: a model starting over would garble the answer
      expect(stack.seen('primary').count).toBe(1);
      expect(stack.seen('fallback').count).toBe(0);

      faults.provider.setFault('gpt-primary', 'none');
      const next = await stack.stream();
      expect(next.error).toBeUndefined();
      expect(textOf(next.events)).toBe(expectedAnswer('gpt-fallback'));
    });
  });

  it('an OpenAI-compatible stream cut mid-answer is continued by an Anthropic model (prefill)', async () => {
    const stack = await faults.start({
      models: [primary(), fallback({ dialect: 'anthropic', providerModel: 'claude-fallback' })],
    });
    faults.provider.setFault('gpt-primary', 'fault-cut-after-3');

    const { events, error } = await stack.stream();

    expect(error).toBeUndefined();
    const whole = expectedAnswer('claude-fallback');
    expect(textOf(events)).toBe(whole);
    expect(completions(events)).toEqual([
      expect.objectContaining({
        modelName: 'claude-fallback',
        aiMessage: expect.objectContaining({ text: whole }),
      }),
    ]);
    expect(completions(events)[0]!.tokenUsage?.totalTokens).toBeGreaterThan(0);
    const sent = stack.seen('fallback').bodies[0] as { messages: { role: string }[] };
    expect(sent.messages.at(-1)).toMatchObject({ role: 'assistant' });
  });

  it('a prefill-capable fallback that is cooling down cannot continue, and the error says why', async () => {
    const stack = await faults.start({
      models: [primary(), fallback(), { name: 'spare', providerModel: 'gpt-spare' }],
    });
    // first the fallback fails and cools down (the primary's context-length error does not cool it)
    faults.provider.setFault('gpt-primary', 'fault-context-length');
    faults.provider.setFault('gpt-fallback', 'fault-503');
    expect((await stack.chat()).modelName).toBe('gpt-spare');
    expect(stack.circuit('fallback').state).toBe('open');
    expect(stack.circuit('primary').state).toBe('closed');

    faults.provider.setFault('gpt-primary', 'fault-cut-after-3');
    const { events, error } = await stack.stream();

    expect(completions(events)).toEqual([]);
    expect(error).toBeInstanceOf(StreamInterruptedException);
    const message = (error as Error).message;
    expect(message).toMatch(/^The stream of model 'primary' failed/);
    // the fallback does declare the capability: the message must not claim that none does
    expect(message).not.toContain('no remaining model declares');
    expect(message).toContain('ASSISTANT_PREFILL');
    expect(stack.seen('spare').count).toBe(1);
  });

  it('with continuation off for the router, a cut stream ends in an error even with a capable fallback', async () => {
    const stack = await faults.start({ continuation: false });
    faults.provider.setFault('gpt-primary', 'fault-cut-after-3');

    const { events, error } = await stack.stream();

    expect(completions(events)).toEqual([]);
    expect(error).toBeInstanceOf(StreamInterruptedException);
    expect((error as Error).message).toContain('continuation is off');
    expect(stack.seen('fallback').count).toBe(0);
  });

  it('a fallback that rejects the prefill never becomes the final error: the original failure is', async () => {
    const stack = await faults.start({
      models: [primary(), fallback({ providerModel: 'gpt-fallback-no-prefill' })],
    });
    faults.provider.setFault('gpt-primary', 'fault-cut-after-3');

    const { events, error } = await stack.stream();

    expect(completions(events)).toEqual([]);
    expect(error).toBeInstanceOf(StreamInterruptedException);
    const interrupted = error as StreamInterruptedException;
    expect(interrupted.model).toBe('primary');
    isProviderError(/^(stream_truncated|connection_interrupted)$/)(interrupted.cause);
    expect(interrupted.message).toMatch(/^The stream of model 'primary' failed/);
    expect(interrupted.message).toContain("continuing it with model 'fallback' failed");
    // both failures are on record, the original first
    expect(interrupted.errors).toHaveLength(2);
    expect(interrupted.errors[0]).toBe(interrupted.cause);
    expect(stack.seen('primary').count).toBe(1);
    expect(stack.seen('fallback').count).toBe(1);
  });
});

describe('stream endings that are complete answers', () => {
  const faults = useFaultStacks(FaultStack);

  it.each(['fault-no-done', 'fault-no-done-open'])(
    '%s: finished with usage at the finish reason, by the primary, without waiting or failing over',
    async (fault) => {
      const stack = await faults.start();
      faults.provider.setFault('gpt-primary', fault);

      const { events, error } = await stack.stream();

      expect(error).toBeUndefined();
      const done = completions(events);
      expect(done).toHaveLength(1);
      expect(textOf(events)).toBe(FULL);
      expect(done[0]).toMatchObject({ modelName: 'gpt-primary', finishReason: 'stop' });
      expect(done[0]!.tokenUsage?.totalTokens).toBeGreaterThan(0);
      // a client waiting for [DONE] on the open connection would hit the idle timeout and fail over
      expect(stack.modelErrors).toEqual([]);
      expect(stack.seen('fallback').count).toBe(0);
      expect(stack.circuit('primary').state).toBe('closed');
    },
  );

  it('a malformed chunk under policy skip is dropped with an event; the primary completes its answer', async () => {
    const stack = await faults.start({
      models: [primary({ malformedChunks: 'skip' }), fallback()],
    });
    faults.provider.setFault('gpt-primary', 'fault-malformed-chunk');

    const { events, error } = await stack.stream();

    expect(error).toBeUndefined();
    expect(textOf(events)).toBe(FULL);
    expect(completions(events)[0]).toMatchObject({ modelName: 'gpt-primary' });
    expect(stack.eventsOf('stream-chunk-skipped')).toEqual([
      expect.objectContaining({ model: 'gpt-primary' }),
    ]);
    expect(stack.seen('fallback').count).toBe(0);
  });
});

describe("the caller's own errors, and the overall deadline", () => {
  const faults = useFaultStacks(FaultStack);

  it.each(['chat', 'stream'] as const)(
    "another 400 is the caller's error (%s): no retry, no failover, no cooldown",
    async (mode) => {
      const stack = await faults.start();
      faults.provider.setFault('gpt-primary', 'fault-400');

      const error = await failureOf(stack, mode);

      expect(error).toBeInstanceOf(ProviderException);
      expect(error).toMatchObject({ kind: 'invalid-request', status: 400 });
      expectNoRetryFailoverOrCooldown(stack);
    },
  );

  it('the overall deadline bounds a call across its retries, then the group fails over', async () => {
    // each 429 asks for 600 ms; the second wait would end past the 1 s deadline (the margins are
    // wide, as the calls are real HTTP on a machine that may be busy)
    const stack = await faults.start({
      models: [primary({ timeouts: { attemptMs: 5_000, deadlineMs: 1_000 } }), fallback()],
    });
    faults.provider.setFault('gpt-primary', 'fault-429-retry-after-ms-600');

    const response = await stack.chat();

    expect(response.modelName).toBe('gpt-fallback');
    // the first retry fits in the deadline; a third attempt would not
    expect(stack.seen('primary').count).toBe(2);
    expect(stack.eventsOf('model-failed')).toEqual([
      expect.objectContaining({ model: 'primary', kind: 'rate-limited' }),
    ]);
  });

  it('a stream that never finishes is cut at the deadline even while tokens keep coming', async () => {
    const stack = await faults.start({
      models: [
        // the deadline leaves room for the first tokens over real HTTP on a busy machine: cut
        // before them, the call would fail over before any output instead of mid-stream
        primary({ timeouts: { firstTokenMs: 5_000, idleMs: 5_000, deadlineMs: 1_000 } }),
        fallback({ prefill: false }),
      ],
    });
    // a stalled stream: the idle bound is long, only the deadline can end it
    faults.provider.setFault('gpt-primary', 'fault-stall-after-3');

    const { events, error } = await stack.stream();

    expect(completions(events)).toEqual([]);
    expect(error).toBeInstanceOf(StreamInterruptedException);
    expect((error as StreamInterruptedException).cause).toBeInstanceOf(ModelTimeoutException);
    expect((error as StreamInterruptedException).cause).toMatchObject({
      phase: 'deadline',
      timeoutMs: 1_000,
    });
  });
});

describe('content policy', () => {
  const faults = useFaultStacks(FaultStack);

  it.each(['chat', 'stream'] as const)(
    "a content-filter refusal returns the provider's reason (%s): no retry, no failover, no cooldown",
    async (mode) => {
      const stack = await faults.start();
      faults.provider.setFault('gpt-primary', 'fault-content-filter');

      const error = await failureOf(stack, mode);

      expect(error).toBeInstanceOf(ProviderException);
      expect(error).toMatchObject({ kind: 'content-policy', status: 400 });
      expect((error as Error).message).toContain('content management policy');
      expectNoRetryFailoverOrCooldown(stack);

      // the model is fine for other content
      faults.provider.setFault('gpt-primary', 'none');
      expect((await stack.chat()).modelName).toBe('gpt-primary');
    },
  );

  it('a content-filter refusal fails over when the router is configured to', async () => {
    const stack = await faults.start({
      models: [primary(), fallback()],
      errorDispositions: { 'content-policy': { failover: true } },
    });
    faults.provider.setFault('gpt-primary', 'fault-content-filter');

    const response = await stack.chat();

    expect(response.modelName).toBe('gpt-fallback');
    expect(response.aiMessage.text).toBe(expectedAnswer('gpt-fallback'));
    expect(stack.eventsOf('model-failed')).toEqual([
      expect.objectContaining({ model: 'primary', kind: 'content-policy' }),
    ]);
    expect(stack.circuit('primary').state).toBe('closed');
  });

  it('an answer finished by the content filter is a response with that finish reason, not an error', async () => {
    const stack = await faults.start();
    faults.provider.setFault('gpt-primary', 'fault-content-filter-finish');

    const { events, error } = await stack.stream();

    expect(error).toBeUndefined();
    const done = completions(events)[0]!;
    expect(done).toMatchObject({ modelName: 'gpt-primary', finishReason: 'content_filter' });
    expect(textOf(events)).toBe(done.aiMessage.text);
    expect(stack.seen('fallback').count).toBe(0);
  });
});
