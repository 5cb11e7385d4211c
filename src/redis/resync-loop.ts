/** What one resync does, told by the store. */
export interface ResyncSteps {
  /** Both connections are ready and the store is open. */
  canStart(): boolean;
  closed(): boolean;
  shared(): boolean;
  /** Subscribes to the channel if the event connection is not subscribed yet. */
  subscribe(): Promise<void>;
  /** Loads Redis's state into the mirrors (or puts the mirrors' state back into Redis). */
  synchronise(): Promise<void>;
  hasLocalChanges(): boolean;
  pushLocalChanges(): Promise<void>;
  /** The resync completed with nothing lost in between: the store shares again. */
  succeeded(): void;
  failed(error: unknown): void;
  /** Upper bound of the retry delay. */
  maxDelayMs: number;
}

/** Bounds the push-and-recheck rounds of a resync while local changes keep arriving. */
const MAX_PUSH_ROUNDS = 5;

/**
 * The Redis store's way back to sharing: one resync at a time (a request during one runs another
 * after it), retries with a doubling delay while commands keep failing, and an epoch that a loss
 * of sharing bumps, so that a resync which overlapped a loss never claims success.
 */
export class ResyncLoop {
  private epoch = 0;
  private running = false;
  private requested = false;
  private failures = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly steps: ResyncSteps) {}

  /** Sharing was lost (or the store closed): a resync in progress no longer counts. */
  invalidate(): void {
    this.epoch++;
  }

  stop(): void {
    this.invalidate();
    clearTimeout(this.timer);
  }

  request(): void {
    if (!this.steps.canStart()) return;
    if (this.running) {
      this.requested = true;
      return;
    }
    this.running = true;
    void this.run();
  }

  /**
   * A connection is ready again: resync at once, unless resyncs have been failing (a node that
   * keeps answering READONLY makes the store reconnect after each failed one), which keep their
   * doubling delay rather than reconnecting and re-reading the state in a tight loop.
   */
  reconnected(): void {
    if (this.failures === 0) this.request();
    else this.schedule();
  }

  /**
   * A retry for when the connections stay up but a command failed (a timeout): a reconnect
   * triggers a resync by itself through the `ready` event.
   */
  schedule(): void {
    if (this.timer !== undefined || this.steps.closed()) return;
    const delay = Math.min(50 * 2 ** Math.min(this.failures, 16), this.steps.maxDelayMs);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      // a resync that succeeded meanwhile made this one moot; running it while shared would
      // write back window contributions under the store's live adds
      if (!this.steps.shared()) this.request();
    }, delay);
    this.timer.unref();
  }

  private async run(): Promise<void> {
    const epoch = this.epoch;
    const { steps } = this;
    try {
      do {
        this.requested = false;
        await steps.subscribe();
        await steps.synchronise();
      } while (this.requested && epoch === this.epoch);
      // Circuits changed locally during the sync go out now; a bounded number of rounds, as a
      // replica under load may keep changing them.
      for (let round = 0; round < MAX_PUSH_ROUNDS && steps.hasLocalChanges(); round++) {
        await steps.pushLocalChanges();
      }
      if (steps.hasLocalChanges()) throw new Error('local changes kept arriving during the resync');
      if (epoch === this.epoch && !steps.closed()) {
        this.failures = 0;
        steps.succeeded();
      }
    } catch (error) {
      this.failures++;
      steps.failed(error);
    } finally {
      this.running = false;
      if (this.requested && !steps.shared()) this.request();
    }
  }
}
