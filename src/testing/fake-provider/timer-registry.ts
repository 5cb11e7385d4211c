/**
 * Every timer the fake provider starts, so that `close()` can clear them all and leave nothing
 * running: a pending `sleep` resolves (with `false`) instead of firing later.
 */
export class TimerRegistry {
  private readonly pending = new Map<NodeJS.Timeout, (completed: boolean) => void>();

  /** Resolves `true` after `ms`, or `false` at once when the registry is cleared first. */
  sleep(ms: number): Promise<boolean> {
    if (ms <= 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(timer);
        resolve(true);
      }, ms);
      this.pending.set(timer, resolve);
    });
  }

  clearAll(): void {
    for (const [timer, resolve] of this.pending) {
      clearTimeout(timer);
      resolve(false);
    }
    this.pending.clear();
  }
}
