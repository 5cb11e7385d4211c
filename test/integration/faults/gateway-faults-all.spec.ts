import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { APIError } from 'openai';
import type { FakeProvider } from '../../../src/testing/index.js';
import {
  API_KEY,
  COOLDOWN_MS,
  expectedAnswer,
  fallback,
  gaps,
  primary,
  rejectionOf,
  useFaultStacks,
  type FaultStackOptions,
} from './fault-fixture.js';
import { GatewayFaultStack, contentOf, type StreamedCall } from './gateway-fault-stack.js';

/**
 * Every fault of the fake provider, over HTTP through the demo gateway with the official openai
 * client, for chat and stream where the fault applies to both: what the provider saw, what the
 * client got (the model that answered, usage, the finish), how a stream ended on the wire
 * (`[DONE]`, or an error event and no `[DONE]`), the status of a caller's error, and that the
 * gateway answers the next call. Short timeouts (fault-fixture.ts) cut hangs and stalls.
 */

const FULL = expectedAnswer('gpt-primary');
/** The first `n` tokens of the primary's answer, as the fake provider splits it. */
const firstTokens = (n: number) =>
  FULL.match(/\s*\S+/g)!
    .slice(0, n)
    .join('');

type Mode = 'chat' | 'stream';
type Route = 'primary' | 'fallback';

interface AnsweredCase {
  title: string;
  /** The fault on the primary's provider model, per mode when they differ. */
  fault: string | Partial<Record<Mode, string>>;
  /** Requests the primary's provider model receives during the call (retries included). */
  attempts: number;
  servedBy: Route;
  /** The primary's circuit opened: the next call skips it until the cooldown ends. */
  cooled: boolean;
  /** Lower bounds of the gaps between the primary's attempts (backoff, Retry-After). */
  minGaps?: number[];
  /** The retry waited until the HTTP date the provider named. */
  waitsForDate?: boolean;
  finish?: 'stop' | 'content_filter';
  stack?: Partial<FaultStackOptions>;
}

// Backoff with `random` pinned to 0.5 (fault-fixture RETRY): retry 1 waits 10 ms, retry 2 waits 20 ms.
const ANSWERED: AnsweredCase[] = [
  {
    title: '429 without Retry-After: backoff, three attempts, then the fallback',
    fault: 'fault-429',
    attempts: 3,
    servedBy: 'fallback',
    cooled: true,
    minGaps: [10, 20],
  },
  {
    title: '429 with retry-after-ms: retried after that wait, then the fallback',
    fault: 'fault-429-retry-after-ms-80',
    attempts: 3,
    servedBy: 'fallback',
    cooled: true,
    minGaps: [80, 80],
  },
  {
    title: '429 with Retry-After: 1 once: retried a second later on the primary',
    fault: 'fault-429-retry-after-1-once',
    attempts: 2,
    servedBy: 'primary',
    cooled: false,
    minGaps: [1_000],
  },
  {
    title: '429 with Retry-After as an HTTP date once: retried at that date on the primary',
    fault: 'fault-429-retry-after-date-1-once',
    attempts: 2,
    servedBy: 'primary',
    cooled: false,
    waitsForDate: true,
  },
  {
    title: '429 with a Retry-After beyond the cap: no retry, the fallback at once',
    fault: 'fault-429-retry-after-30',
    attempts: 1,
    servedBy: 'fallback',
    cooled: true,
  },
  {
    title: '500 once, then healthy: one retry on the primary answers',
    fault: 'fault-500-once',
    attempts: 2,
    servedBy: 'primary',
    cooled: false,
    minGaps: [10],
  },
  {
    title: '503 always: three attempts with backoff, then the fallback',
    fault: 'fault-503',
    attempts: 3,
    servedBy: 'fallback',
    cooled: true,
    minGaps: [10, 20],
  },
  {
    title: 'connection reset: retried like a 503, then the fallback',
    fault: 'fault-reset',
    attempts: 3,
    servedBy: 'fallback',
    cooled: true,
    minGaps: [10, 20],
  },
  {
    title: 'hang: cut at the attempt / first-token timeout, never retried, the fallback',
    fault: 'fault-hang',
    attempts: 1,
    servedBy: 'fallback',
    cooled: true,
  },
  {
    title: 'first token past its bound: cut there, never retried, the fallback',
    fault: 'fault-slow-first-token-3000',
    attempts: 1,
    servedBy: 'fallback',
    cooled: true,
  },
  {
    title: 'first token slow but within its bound: the primary answers',
    fault: 'fault-slow-first-token-40',
    attempts: 1,
    servedBy: 'primary',
    cooled: false,
  },
  {
    title: 'answer cut before any content reached the caller: retried, then the fallback',
    fault: { chat: 'fault-cut-after-3', stream: 'fault-cut-after-0' },
    attempts: 3,
    servedBy: 'fallback',
    cooled: true,
  },
  {
    title: 'answer stalled before any content reached the caller: cut by a timeout, the fallback',
    fault: { chat: 'fault-stall-after-3', stream: 'fault-stall-after-0' },
    attempts: 1,
    servedBy: 'fallback',
    cooled: true,
  },
  {
    title: 'an error before any content reached the caller: retried, then the fallback',
    fault: { chat: 'fault-error-after-3', stream: 'fault-error-after-0' },
    attempts: 3,
    servedBy: 'fallback',
    cooled: true,
  },
  {
    title: 'context length exceeded: not retried, the fallback, the primary not cooled',
    fault: 'fault-context-length',
    attempts: 1,
    servedBy: 'fallback',
    cooled: false,
  },
  {
    title: '401: misconfigured, not retried, cooled, the fallback',
    fault: 'fault-401',
    attempts: 1,
    servedBy: 'fallback',
    cooled: true,
  },
  {
    title: 'content filter (400) with failover configured: the fallback, the primary not cooled',
    fault: 'fault-content-filter',
    attempts: 1,
    servedBy: 'fallback',
    cooled: false,
    stack: { errorDispositions: { 'content-policy': { failover: true } } },
  },
  {
    title: 'an answer finished by the content filter: a response with that finish reason',
    fault: 'fault-content-filter-finish',
    attempts: 1,
    servedBy: 'primary',
    cooled: false,
    finish: 'content_filter',
  },
  {
    title: 'a malformed chunk under policy skip: dropped, the primary completes',
    fault: { stream: 'fault-malformed-chunk' },
    attempts: 1,
    servedBy: 'primary',
    cooled: false,
    stack: { models: [primary({ malformedChunks: 'skip' }), fallback()] },
  },
  {
    title: 'a complete stream without [DONE]: finished at once by the primary',
    fault: { stream: 'fault-no-done' },
    attempts: 1,
    servedBy: 'primary',
    cooled: false,
  },
  {
    title: 'a complete stream without [DONE], connection left open: finished at once',
    fault: { stream: 'fault-no-done-open' },
    attempts: 1,
    servedBy: 'primary',
    cooled: false,
  },
];

const faultFor = (fault: AnsweredCase['fault'], mode: Mode) =>
  typeof fault === 'string' ? fault : fault[mode];

/** The answer the client got, read the same way for chat and stream. */
interface Answer {
  model: string;
  content: string;
  finish: string | null | undefined;
  totalTokens: number | undefined;
}

/** One call in `mode`, asserting it ended as a success on the wire; returns what it answered. */
async function answer(gateway: GatewayFaultStack, mode: Mode): Promise<Answer> {
  if (mode === 'chat') {
    const completion = await gateway.complete();
    expect(await gateway.lastBody()).not.toContain(API_KEY);
    return {
      model: completion.model,
      content: completion.choices[0]!.message.content ?? '',
      finish: completion.choices[0]!.finish_reason,
      totalTokens: completion.usage?.total_tokens,
    };
  }
  const streamed = await gateway.streamed();
  expect(streamed.error).toBeUndefined();
  expectFinishedOnTheWire(streamed);
  const last = streamed.chunks.at(-1)!;
  // every chunk names the model answering; no other model started one
  expect(new Set(streamed.chunks.map((chunk) => chunk.model))).toEqual(new Set([last.model]));
  expect(streamed.chunks.filter((chunk) => chunk.choices[0]?.finish_reason)).toHaveLength(1);
  return {
    model: last.model,
    content: contentOf(streamed.chunks),
    finish: last.choices[0]?.finish_reason,
    totalTokens: last.usage?.total_tokens,
  };
}

/** A whole answer: `[DONE]` last, no error event, nothing malformed or secret on the wire. */
function expectFinishedOnTheWire({ events }: StreamedCall): void {
  expect(events.at(-1)).toBe('[DONE]');
  expect(events.filter((event) => event === '[DONE]')).toHaveLength(1);
  expect(events.some((event) => event.includes('"error"'))).toBe(false);
  expect(events.join('\n')).not.toContain('MALFORMED');
  expect(events.join('\n')).not.toContain(API_KEY);
}

/** An unfinished stream: an error event last, no `[DONE]`, no finish reason. */
function expectErrorEventWithoutDone({ events, chunks, error }: StreamedCall): string {
  expect(error).toBeInstanceOf(APIError);
  expect(events).not.toContain('[DONE]');
  expect(chunks.some((chunk) => chunk.choices[0]?.finish_reason)).toBe(false);
  const last = JSON.parse(events.at(-1)!) as { error?: { message: string } };
  expect(last.error?.message).toBeDefined();
  expect(events.join('\n')).not.toContain(API_KEY);
  return last.error!.message;
}

/**
 * The gateway still answers: a cooled primary is left alone until its cooldown ends, then
 * serves again; an uncooled one serves the next call.
 */
async function expectStillAnswers(
  gateway: GatewayFaultStack,
  provider: FakeProvider,
  mode: Mode,
  cooled: boolean,
): Promise<void> {
  provider.setFault('gpt-primary', 'none');
  provider.setFault('gpt-fallback', 'none');
  gateway.clearRecords();
  const next = await answer(gateway, mode);
  expect(next.model).toBe(cooled ? 'fallback' : 'primary');
  expect(gateway.seen('primary').count).toBe(cooled ? 0 : 1);
  if (cooled) {
    gateway.advance(COOLDOWN_MS);
    expect((await gateway.complete()).model).toBe('primary');
  }
}

describe.each<Mode>(['chat', 'stream'])(
  'every fault over HTTP through the gateway (%s)',
  (mode) => {
    const faults = useFaultStacks(GatewayFaultStack);
    const cases = ANSWERED.filter((fault) => faultFor(fault.fault, mode) !== undefined);

    it.each(cases)('$title', async (fault) => {
      const gateway = await faults.start(fault.stack);
      faults.provider.setFault('gpt-primary', faultFor(fault.fault, mode)!);

      const got = await answer(gateway, mode);

      // a whole answer, from the model that served, named by the route, with usage
      const providerModel = gateway.providerModel(fault.servedBy);
      expect(got.model).toBe(fault.servedBy);
      if (fault.finish === 'content_filter') {
        // the filter cut the answer after two tokens, and the finish says why
        expect(got.content).toBe(firstTokens(2));
      } else {
        expect(got.content).toBe(expectedAnswer(providerModel));
      }
      expect(got.finish).toBe(fault.finish ?? 'stop');
      expect(got.totalTokens).toBeGreaterThan(0);

      // what the provider saw: bounded attempts on the primary, spaced as asked, then the fallback
      const seen = gateway.seen('primary');
      expect(seen.count).toBe(fault.attempts);
      for (const [index, min] of (fault.minGaps ?? []).entries()) {
        expect(gaps(seen.timestamps)[index]).toBeGreaterThanOrEqual(min);
      }
      if (fault.waitsForDate) {
        // the provider stamped its answer's date one second after it received the request, in
        // whole seconds (HTTP dates have no ms); the retry came no earlier than that date
        const [first, second] = seen.timestamps as [number, number];
        expect(second).toBeGreaterThanOrEqual(Math.floor((first + 1_000) / 1_000) * 1_000);
      }
      expect(gateway.seen('fallback').count).toBe(fault.servedBy === 'fallback' ? 1 : 0);
      expect(gateway.circuit('primary').state).toBe(fault.cooled ? 'open' : 'closed');

      await expectStillAnswers(gateway, faults.provider, mode, fault.cooled);
    });
  },
);

const MID_STREAM = [
  { fault: 'fault-cut-after-3', partial: firstTokens(3) },
  { fault: 'fault-stall-after-3', partial: firstTokens(3) },
  { fault: 'fault-error-after-3', partial: firstTokens(3) },
  { fault: 'fault-malformed-chunk', partial: firstTokens(1) },
];

describe('faults after the first token, over HTTP (stream)', () => {
  const faults = useFaultStacks(GatewayFaultStack);

  it.each(MID_STREAM)(
    '$fault: continued seamlessly by the prefill-capable fallback, then [DONE]',
    async ({ fault, partial }) => {
      const gateway = await faults.start();
      faults.provider.setFault('gpt-primary', fault);

      const streamed = await gateway.streamed();

      expect(streamed.error).toBeUndefined();
      expectFinishedOnTheWire(streamed);
      // one answer: the primary's start, the fallback's continuation, nothing repeated
      expect(contentOf(streamed.chunks)).toBe(expectedAnswer('gpt-fallback'));
      const last = streamed.chunks.at(-1)!;
      expect(last.model).toBe('fallback');
      expect(last.choices[0]!.finish_reason).toBe('stop');
      expect(last.usage?.total_tokens).toBeGreaterThan(0);
      // output had started: no retry of the primary; the fallback continued the partial answer
      expect(gateway.seen('primary').count).toBe(1);
      expect(gateway.seen('fallback').count).toBe(1);
      const sent = gateway.seen('fallback').bodies[0] as { messages: { content: unknown }[] };
      expect(sent.messages.at(-1)).toEqual({ role: 'assistant', content: partial });

      await expectStillAnswers(gateway, faults.provider, 'stream', true);
    },
  );

  it.each(MID_STREAM)(
    '$fault without a prefill-capable fallback: an SSE error event naming it, no [DONE]',
    async ({ fault, partial }) => {
      const gateway = await faults.start({ models: [primary(), fallback({ prefill: false })] });
      faults.provider.setFault('gpt-primary', fault);

      const streamed = await gateway.streamed();

      // the client got the start of the answer, then an error, never a finished answer
      expect(contentOf(streamed.chunks)).toBe(partial);
      const message = expectErrorEventWithoutDone(streamed);
      expect(message).toMatch(/^The answer broke off after \d+ characters: model 'primary' failed/);
      expect(message).not.toContain('MALFORMED');
      expect(gateway.seen('primary').count).toBe(1);
      expect(gateway.seen('fallback').count).toBe(0);

      await expectStillAnswers(gateway, faults.provider, 'stream', true);
    },
  );
});

interface CallerErrorCase {
  title: string;
  fault: string;
  /** The model the client asks for: the router, or one of its models directly. */
  model: string;
  /** The fault goes on every model, so no failover can rescue the call. */
  everywhere?: boolean;
  /** OpenAI's `error.code` in the body (the type is always `invalid_request_error`). */
  code: string;
  message: string | RegExp;
  stack?: Partial<FaultStackOptions>;
}

const CALLER_ERRORS: CallerErrorCase[] = [
  {
    title: "content filter (400): the provider's reason, no failover by default",
    fault: 'fault-content-filter',
    model: 'main',
    code: 'content_policy_violation',
    message: 'content management policy',
  },
  {
    title: "another 400: the caller's own error, no retry, no failover",
    fault: 'fault-400',
    model: 'main',
    // the provider's body has no code; its type stands in for one
    code: 'invalid_request_error',
    message: 'Invalid request (fake provider fault)',
  },
  {
    title: 'context length exceeded on a model asked for directly: nothing to fail over to',
    fault: 'fault-context-length',
    model: 'primary',
    code: 'context_length_exceeded',
    message: /maximum context length/i,
  },
  {
    title: 'context length exceeded on every model of the router',
    fault: 'fault-context-length',
    model: 'main',
    everywhere: true,
    code: 'context_length_exceeded',
    message: /maximum context length/i,
  },
  {
    title: 'content filter on every model, with failover configured',
    fault: 'fault-content-filter',
    model: 'main',
    everywhere: true,
    code: 'content_policy_violation',
    message: 'content management policy',
    stack: { errorDispositions: { 'content-policy': { failover: true } } },
  },
];

describe.each<Mode>(['chat', 'stream'])("the caller's errors over HTTP (%s)", (mode) => {
  const faults = useFaultStacks(GatewayFaultStack);

  it.each(CALLER_ERRORS)('$title: 400', async (fault) => {
    const gateway = await faults.start(fault.stack);
    faults.provider.setFault('gpt-primary', fault.fault);
    if (fault.everywhere) faults.provider.setFault('gpt-fallback', fault.fault);

    const error = await rejectionOf(
      mode === 'chat'
        ? gateway.complete({ model: fault.model })
        : gateway.streamed(fault.model).then(({ error: thrown }) => {
            if (thrown) throw thrown;
          }),
    );

    // before any output, a stream's failure is an ordinary JSON error with its status
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).status).toBe(400);
    expect((error as APIError).type).toBe('invalid_request_error');
    expect((error as APIError).code).toBe(fault.code);
    expect((error as APIError).message).toMatch(fault.message);
    expect(await gateway.lastBody()).not.toContain(API_KEY);
    // no retry, no cooldown; the fallback only when the fault is everywhere
    expect(gateway.seen('primary').count).toBe(1);
    expect(gateway.seen('fallback').count).toBe(fault.everywhere ? 1 : 0);
    expect(gateway.circuit('primary').state).toBe('closed');

    await expectStillAnswers(gateway, faults.provider, mode, false);
  });
});
