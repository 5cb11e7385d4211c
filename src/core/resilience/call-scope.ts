import type { Clock } from '../clock.js';
import { ModelTimeoutException, type TimeoutPhase } from '../errors/timeout-exception.js';
import { linkAbort, type LinkedAbort } from './linked-abort.js';
import type { Timers } from './timers.js';

/**
 * One call on one model: a signal that aborts when the caller aborts (with the caller's reason)
 * or when the call's deadline passes (with a `deadline` ModelTimeoutException).
 */
export class CallScope {
  readonly deadlineAt: number | undefined;
  /** The call's own controller; none without a deadline, when the caller's signal is enough. */
  private readonly link: LinkedAbort | undefined;
  private readonly callSignal: AbortSignal;
  private readonly deadlineTimer: unknown;

  constructor(
    callerSignal: AbortSignal | undefined,
    deadlineMs: number | undefined,
    private readonly model: string,
    private readonly timers: Timers,
    clock: Clock,
  ) {
    // without a deadline the call aborts exactly when the caller does: the caller's signal is
    // the call's (one AbortController and listener fewer per call, on the hot path)
    if (deadlineMs === undefined && callerSignal !== undefined) {
      this.callSignal = callerSignal;
      return;
    }
    const link = linkAbort(callerSignal);
    this.link = link;
    this.callSignal = link.signal;
    if (deadlineMs !== undefined) {
      this.deadlineAt = clock() + deadlineMs;
      this.deadlineTimer = timers.setTimeout(
        () => link.controller.abort(new ModelTimeoutException('deadline', deadlineMs, model)),
        deadlineMs,
      );
    }
  }

  get signal(): AbortSignal {
    return this.callSignal;
  }

  /** A new attempt inside this call; its signal is what the wrapped model receives. */
  attempt(): AttemptScope {
    return new AttemptScope(this.callSignal, this.model, this.timers);
  }

  dispose(): void {
    if (this.deadlineTimer !== undefined) this.timers.clearTimeout(this.deadlineTimer);
    this.link?.unlink();
  }
}

/**
 * One attempt: aborts with the call's reason, or with a ModelTimeoutException of the phase that
 * is armed (attempt, first token, idle) when its timer fires first.
 */
export class AttemptScope {
  private readonly link: LinkedAbort;
  private timer: unknown;

  constructor(
    callSignal: AbortSignal,
    private readonly model: string,
    private readonly timers: Timers,
  ) {
    this.link = linkAbort(callSignal);
  }

  get signal(): AbortSignal {
    return this.link.signal;
  }

  /** Starts (or restarts) the timer of `phase`; `undefined` ms leaves the phase unbounded. */
  arm(phase: TimeoutPhase, ms: number | undefined): void {
    this.disarm();
    if (ms === undefined) return;
    this.timer = this.timers.setTimeout(() => {
      this.timer = undefined;
      this.link.controller.abort(new ModelTimeoutException(phase, ms, this.model));
    }, ms);
  }

  disarm(): void {
    if (this.timer === undefined) return;
    this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }

  /**
   * What the attempt failed with, as the caller should see it: once the attempt's signal has
   * aborted, its reason (the caller's own, or our timeout) wins over whatever the model threw
   * in response to the abort (an SDK's APIUserAbortError, a DOMException…).
   */
  explain(error: unknown): unknown {
    return this.signal.aborted ? this.signal.reason : error;
  }

  /** Ends the attempt; with a reason, aborts what the model may still be doing. */
  dispose(abortReason?: unknown): void {
    this.disarm();
    this.link.unlink();
    if (abortReason !== undefined && !this.signal.aborted) this.link.controller.abort(abortReason);
  }
}
