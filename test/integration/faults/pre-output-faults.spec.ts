import 'reflect-metadata';
import { beforeEach, describe, expect, it } from '@jest/globals';
import type { ErrorKind } from '../../../src/core/resilience/error-classification.js';
import { ModelTimeoutException } from '../../../src/core/errors/timeout-exception.js';
import {
  API_KEY,
  COOLDOWN_MS,
  FaultStack,
  PRIMARY_TIMEOUTS,
  completions,
  expectedAnswer,
  gaps,
  textOf,
  useFaultStacks,
} from './fault-fixture.js';

/**
 * Faults that strike before any content reaches the caller: the call fails over freely (or
 * recovers on the same model), for `chat` and `stream` alike, and the caller gets one whole
 * answer naming the model that served it.
 */

type Mode = 'chat' | 'stream';

interface FaultCase {
  title: string;
  /** The fault set on the primary's provider model, per mode when they differ. */
  fault: string | Record<Mode, string>;
  /** Requests the primary's provider model receives during the call (retries included). */
  primaryAttempts: number;
  servedBy: 'primary' | 'fallback';
  /** The primary's circuit opened: later calls skip it until the cooldown ends. */
  cooled: boolean;
  /** How the primary's failure was classified (when it failed over). */
  kind?: ErrorKind;
  /** Lower bounds of the gaps between the primary's attempts (Retry-After, backoff). */
  minGaps?: number[];
  /** The provider's wait the retry honoured, as `model-retry` reports it. */
  retryDelays?: number[];
  timeoutPhase?: Record<Mode, 'attempt' | 'first-token'>;
}

// Backoff with `random` pinned to 0.5: retry 1 waits 10 ms, retry 2 waits 20 ms.
const CASES: FaultCase[] = [
  {
    title:
      '429 with retry-after-ms within the cap: retried after exactly that wait, then fails over',
    fault: 'fault-429-retry-after-ms-80',
    primaryAttempts: 3,
    servedBy: 'fallback',
    cooled: true,
    kind: 'rate-limited',
    minGaps: [80, 80],
    retryDelays: [80, 80],
  },
  {
    title: '429 with Retry-After: 1 (seconds), once: one retry a second later on the same model',
    fault: 'fault-429-retry-after-1-once',
    primaryAttempts: 2,
    servedBy: 'primary',
    cooled: false,
    minGaps: [1000],
    retryDelays: [1000],
  },
  {
    title: '429 with Retry-After as an HTTP date, once: retried on the same model after that date',
    fault: 'fault-429-retry-after-date-1-once',
    primaryAttempts: 2,
    servedBy: 'primary',
    cooled: false,
  },
  {
    title: '429 with a Retry-After beyond the cap: no wait, no retry, fails over at once',
    fault: 'fault-429-retry-after-30',
    primaryAttempts: 1,
    servedBy: 'fallback',
    cooled: true,
    kind: 'rate-limited',
    retryDelays: [],
  },
  {
    title: '429 without Retry-After: bounded retries with jittered backoff, then fails over',
    fault: 'fault-429',
    primaryAttempts: 3,
    servedBy: 'fallback',
    cooled: true,
    kind: 'rate-limited',
    minGaps: [10, 20],
    retryDelays: [10, 20],
  },
  {
    title: '500 once, then healthy: one retry on the same model answers',
    fault: 'fault-500-once',
    primaryAttempts: 2,
    servedBy: 'primary',
    cooled: false,
    minGaps: [10],
    retryDelays: [10],
  },
  {
    title: '503 always: three attempts with backoff, then fails over',
    fault: 'fault-503',
    primaryAttempts: 3,
    servedBy: 'fallback',
    cooled: true,
    kind: 'transient',
    minGaps: [10, 20],
  },
  {
    title: 'connection reset before any header: retried like a 503, then fails over',
    fault: 'fault-reset',
    primaryAttempts: 3,
    servedBy: 'fallback',
    cooled: true,
    kind: 'transient',
    minGaps: [10, 20],
  },
  {
    title: 'no answer at all (hang): cut at the attempt timeout, never retried, fails over',
    fault: 'fault-hang',
    primaryAttempts: 1,
    servedBy: 'fallback',
    cooled: true,
    kind: 'timeout',
    timeoutPhase: { chat: 'attempt', stream: 'first-token' },
  },
  {
    title: 'first token later than its bound: cut at that bound, never retried, fails over',
    fault: 'fault-slow-first-token-3000',
    primaryAttempts: 1,
    servedBy: 'fallback',
    cooled: true,
    kind: 'timeout',
    timeoutPhase: { chat: 'attempt', stream: 'first-token' },
  },
  {
    title: 'first token slow but within its bound: the primary answers in full',
    fault: 'fault-slow-first-token-40',
    primaryAttempts: 1,
    servedBy: 'primary',
    cooled: false,
  },
  {
    title: 'answer broken off before any content: retried, then fails over',
    fault: { chat: 'fault-cut-after-3', stream: 'fault-cut-after-0' },
    primaryAttempts: 3,
    servedBy: 'fallback',
    cooled: true,
    kind: 'transient',
  },
  {
    title: 'context length exceeded: not retried, fails over, the primary is not cooled down',
    fault: 'fault-context-length',
    primaryAttempts: 1,
    servedBy: 'fallback',
    cooled: false,
    kind: 'context-length',
  },
  {
    title: '401: the model is misconfigured; not retried, cooled down, fails over',
    fault: 'fault-401',
    primaryAttempts: 1,
    servedBy: 'fallback',
    cooled: true,
    kind: 'misconfigured',
  },
];

describe.each<Mode>(['chat', 'stream'])(
  'pre-output faults through RoutingChatService (%s)',
  (mode) => {
    const faults = useFaultStacks(FaultStack);
    let stack: FaultStack;
    beforeEach(async () => {
      stack = await faults.start();
    });

    async function call() {
      if (mode === 'chat') return stack.chat();
      const { events, error } = await stack.stream();
      if (error) throw error;
      const done = completions(events);
      expect(done).toHaveLength(1);
      // the caller received exactly the answer the complete event reports: nothing cut, nothing doubled
      expect(textOf(events)).toBe(done[0]!.aiMessage.text);
      return done[0]!;
    }

    it.each(CASES)('$title', async (fault) => {
      const spec = typeof fault.fault === 'string' ? fault.fault : fault.fault[mode];
      faults.provider.setFault('gpt-primary', spec);
      const servedBy = stack.providerModel(fault.servedBy);

      const response = await call();

      // a whole answer from the model that served, naming it, with usage
      expect(response.aiMessage.text).toBe(expectedAnswer(servedBy));
      expect(response.modelName).toBe(servedBy);
      expect(response.tokenUsage?.totalTokens).toBeGreaterThan(0);
      expect(response.finishReason).toBe('stop');

      // what the providers saw: bounded attempts on the primary, spaced as asked, then the fallback
      const seen = stack.seen('primary');
      expect(seen.count).toBe(fault.primaryAttempts);
      for (const [index, min] of (fault.minGaps ?? []).entries()) {
        expect(gaps(seen.timestamps)[index]).toBeGreaterThanOrEqual(min);
      }
      if (fault.retryDelays) {
        expect(stack.eventsOf('model-retry').map((event) => event.delayMs)).toEqual(
          fault.retryDelays,
        );
      }
      expect(stack.seen('fallback').count).toBe(fault.servedBy === 'fallback' ? 1 : 0);

      // how the failure was judged
      const failed = stack.eventsOf('model-failed');
      if (fault.servedBy === 'fallback') {
        expect(failed).toEqual([expect.objectContaining({ model: 'primary', kind: fault.kind })]);
        expect(stack.eventsOf('failover')).toEqual([
          expect.objectContaining({ from: 'primary', to: 'fallback' }),
        ]);
        const error = stack.modelErrors[0]!.error;
        // the 401 echoes the key it was sent; neither the error nor any event may carry it
        expect(String((error as Error).message)).not.toContain(API_KEY);
        expect(JSON.stringify(stack.events)).not.toContain(API_KEY);
        if (fault.timeoutPhase) {
          expect(error).toBeInstanceOf(ModelTimeoutException);
          expect(error).toMatchObject({
            phase: fault.timeoutPhase[mode],
            timeoutMs: PRIMARY_TIMEOUTS.attemptMs,
          });
        }
      } else {
        expect(failed).toEqual([]);
      }
      expect(stack.circuit('primary').state).toBe(fault.cooled ? 'open' : 'closed');
      if (fault.cooled) {
        expect(stack.circuit('primary').cooldownUntil).toBe(stack.now + COOLDOWN_MS);
      }

      // afterwards the system still answers; a cooled-down primary is left alone until its
      // cooldown ends, then probed, and serves again once healthy
      faults.provider.setFault('gpt-primary', 'none');
      stack.clearRecords();
      const next = await call();
      expect(next.modelName).toBe(stack.providerModel(fault.cooled ? 'fallback' : 'primary'));
      expect(stack.seen('primary').count).toBe(fault.cooled ? 0 : 1);
      if (fault.cooled) {
        stack.advance(COOLDOWN_MS);
        const recovered = await call();
        expect(recovered.modelName).toBe('gpt-primary');
        expect(stack.circuit('primary').state).toBe('closed');
      }
    });
  },
);
