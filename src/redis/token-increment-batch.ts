/**
 * Coalesces token increments: however many calls add to a counter in one turn of the event loop,
 * Redis receives one increment per counter. The local view already shows every delta (the store
 * counts it as pending at once), so batching costs no accuracy, only a later confirmation.
 */
export class TokenIncrementBatch {
  private batch = new Map<string, { delta: number; done: (() => void)[] }>();
  private scheduled = false;

  /** `send` reports its own failures; it never rejects. */
  constructor(private readonly send: (key: string, delta: number) => Promise<void>) {}

  /** Resolves once the batch holding this delta has been answered (or has failed). */
  add(key: string, delta: number): Promise<void> {
    let entry = this.batch.get(key);
    if (entry === undefined) {
      entry = { delta: 0, done: [] };
      this.batch.set(key, entry);
    }
    entry.delta += delta;
    const settled = new Promise<void>((resolve) => entry.done.push(resolve));
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
    return settled;
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.batch;
    this.batch = new Map();
    for (const [key, { delta, done }] of batch) {
      void this.send(key, delta).finally(() => {
        for (const resolve of done) resolve();
      });
    }
  }
}
