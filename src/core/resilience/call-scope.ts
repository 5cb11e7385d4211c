import { abortReason } from '../chat/abort.js';
import type { Clock } from '../clock.js';
import { ModelTimeoutException, type TimeoutPhase } from '../errors/timeout-exception.js';
import { linkAbort, type LinkedAbort } from './linked-abort.js';
import { PhaseTimer } from './phase-timer.js';
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
    private readonly clock: Clock,
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
    return new AttemptScope(this.callSignal, this.model, this.timers, this.clock);
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
  private readonly timer: PhaseTimer;
  /** Rejects the pending `race`; one abort listener per attempt serves all its races. */
  private rejectPending: ((reason: unknown) => void) | undefined;
  private listening = false;

  constructor(
    callSignal: AbortSignal,
    private readonly model: string,
    timers: Timers,
    private readonly clock: Clock,
  ) {
    const link = linkAbort(callSignal);
    this.link = link;
    this.timer = new PhaseTimer(timers, clock, (phase, ms) =>
      link.controller.abort(new ModelTimeoutException(phase, ms, model)),
    );
  }

  get signal(): AbortSignal {
    return this.link.signal;
  }

  /**
   * Starts (or restarts) the timer of `phase` from `now` (read here when not given);
   * `undefined` ms leaves the phase unbounded.
   */
  arm(phase: TimeoutPhase, ms: number | undefined, now?: number): void {
    this.timer.arm(phase, ms, now ?? this.clock());
  }

  disarm(): void {
    this.timer.disarm();
  }

  /**
   * `promise`, rejected with the attempt's abort reason as soon as the attempt aborts (a model
   * may ignore its signal). One at a time. Unlike `raceAbort`, no listener is added and removed
   * per call: a stream races every event.
   */
  race<T>(promise: Promise<T>): Promise<T> {
    const signal = this.link.signal;
    if (signal.aborted) {
      // the losing promise may still reject later: observe it so it never becomes unhandled
      promise.catch(() => undefined);
      return Promise.reject(abortReason(signal));
    }
    if (!this.listening) {
      this.listening = true;
      signal.addEventListener('abort', () => this.rejectPending?.(abortReason(signal)), {
        once: true,
      });
    }
    return new Promise<T>((resolve, reject) => {
      this.rejectPending = reject;
      promise.then(resolve, reject);
    });
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
  dispose(reason?: unknown): void {
    this.timer.stop();
    this.link.unlink();
    if (reason !== undefined && !this.signal.aborted) this.link.controller.abort(reason);
  }
}
