import { systemTimers, type Timers } from '../resilience/timers.js';
import { emitTo } from '../observability/routing-event.js';
import { partialUsage } from '../cost/partial-usage.js';
import type { AttemptAbort, HedgePolicy } from './hedge-policy.js';
import type { Attempt, ModelRouterCall } from './model-router-call.js';

/** How a hedged opening ended. */
export type HedgedOutcome<T> =
  /** `attempt` produced first; `release` unlinks its signal from the caller's once it is done. */
  | { kind: 'won'; attempt: Attempt; value: T; release: () => void }
  /** Every attempt started failed with an error to fail over from (each already recorded). */
  | { kind: 'failed' }
  /** An attempt failed with an error that ends the call (recorded): the caller's answer. */
  | { kind: 'stop'; error: unknown };

interface Runner<T> {
  readonly attempt: Attempt;
  readonly link: AttemptAbort;
  readonly startedAt: number;
  readonly hedge: boolean;
  readonly done: Promise<Settled<T>>;
}

type Settled<T> =
  { runner: Runner<T>; ok: true; value: T } | { runner: Runner<T>; ok: false; error: unknown };

const NOTHING_PRODUCED = Object.freeze({ characters: 0, deltas: 0 });

/**
 * The opening of a call (a stream's first event, or a whole answer) with a hedge: `first` starts
 * at once; if it has not produced after the policy's delay, and the policy's bucket has an
 * extra call, the strategy's next pick starts beside it. The first to produce wins and the other
 * is aborted (its connection released) and settled as cancelled, charged for the prompt it read.
 * A failure is recorded as in any call; while the other attempt runs the call waits for it.
 */
export async function hedgedOpen<T>(
  call: ModelRouterCall,
  first: Attempt,
  policy: HedgePolicy,
  open: (attempt: Attempt, signal: AbortSignal) => Promise<T>,
  /** Frees what a loser produced after it lost (closes a stream). */
  discard: (value: T) => void,
  timers: Timers = systemTimers,
  clock: () => number = Date.now,
): Promise<HedgedOutcome<T>> {
  const callerSignal = call.options.signal;
  const running: Runner<T>[] = [];
  const start = (attempt: Attempt, hedge: boolean) => {
    const link = policy.abortFor(callerSignal);
    const runner = { attempt, link, startedAt: clock(), hedge } as Runner<T> & {
      done: Promise<Settled<T>>;
    };
    runner.done = open(attempt, link.controller.signal).then(
      (value): Settled<T> => ({ runner, ok: true, value }),
      (error: unknown): Settled<T> => ({ runner, ok: false, error }),
    );
    running.push(runner);
  };
  const abandon = async (reason: unknown) => {
    for (const loser of running.splice(0)) {
      loser.link.controller.abort(reason);
      loser.link.unlink();
      void loser.done.then((late) => {
        if (late.ok) discard(late.value);
      });
      loser.attempt.context.usage = partialUsage(call.request, NOTHING_PRODUCED);
      await call.cancelled(loser.attempt, reason);
    }
  };

  const delayMs = policy.delayMs();
  let timer: unknown;
  let hedgeDue: Promise<'hedge'> | undefined =
    delayMs === undefined
      ? undefined
      : new Promise((resolve) => {
          timer = timers.setTimeout(() => resolve('hedge'), delayMs);
        });
  let hedged = false;
  start(first, false);
  try {
    for (;;) {
      const next = await Promise.race([
        ...running.map((runner) => runner.done),
        ...(hedgeDue ? [hedgeDue] : []),
      ]);
      if (next === 'hedge') {
        hedgeDue = undefined;
        if (running.length === 1 && !callerSignal?.aborted && policy.take()) {
          const extra = await call.next();
          if (extra) {
            hedged = true;
            emitTo(call.options.observer, {
              type: 'hedge-fired',
              ...(call.route !== undefined ? { route: call.route } : {}),
              model: first.model.name,
              to: extra.model.name,
              afterMs: delayMs!,
            });
            start(extra, true);
          }
        }
        continue;
      }
      running.splice(running.indexOf(next.runner), 1);
      if (next.ok) {
        // the winner's own time: what answers take when they come. The loser's time is unknown
        // (it was cut), and counting how long it ran would move a percentile delay up by the
        // hedge's own latency on every hedge, until it hedged nothing
        policy.observe(clock() - next.runner.startedAt);
        const losers = running.map((runner) => runner.attempt.model.name);
        // a DOMException costs a stack capture: made only when there is a loser to tell
        if (losers.length > 0) await abandon(lostTheRace());
        if (hedged && losers.length > 0) {
          emitTo(call.options.observer, {
            type: 'hedge-won',
            ...(call.route !== undefined ? { route: call.route } : {}),
            winner: next.runner.attempt.model.name,
            loser: losers[0]!,
            hedge: next.runner.hedge,
          });
        }
        const { link } = next.runner;
        return {
          kind: 'won',
          attempt: next.runner.attempt,
          value: next.value,
          release: link.unlink,
        };
      }
      next.runner.link.unlink();
      // the caller left while the model was answering: the prompt was read, and is paid for
      if (callerSignal?.aborted) {
        next.runner.attempt.context.usage = partialUsage(call.request, NOTHING_PRODUCED);
      }
      const { disposition } = await call.failed(next.runner.attempt, next.error);
      if (!disposition.failover) {
        await abandon(next.error);
        return { kind: 'stop', error: next.error };
      }
      if (running.length === 0) return { kind: 'failed' };
    }
  } finally {
    if (timer !== undefined) timers.clearTimeout(timer);
  }
}

function lostTheRace(): DOMException {
  return new DOMException('Another model of the hedged request answered first', 'AbortError');
}
