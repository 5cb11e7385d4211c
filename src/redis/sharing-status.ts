import type { Clock } from '../core/clock.js';
import type {
  RouteStateSharing,
  RouteStateStatusEvent,
  StatusListener,
} from './redis-store-status.js';

export interface SharingStatusDeps {
  clock: Clock;
  /** Where a listener that threw is reported. */
  warn(message: string): void;
  /** An error's message without the password. */
  redact(error: unknown): string;
}

/**
 * Whether the Redis store shares its state right now, the last Redis problem it saw, and the
 * listeners that hear of every switch between `shared` and `local-only`.
 */
export class SharingStatus {
  private sharing: RouteStateSharing = 'local-only';
  private error: string | undefined;
  private readonly listeners = new Set<StatusListener>();

  constructor(private readonly deps: SharingStatusDeps) {}

  get current(): RouteStateSharing {
    return this.sharing;
  }

  isShared(): boolean {
    return this.sharing === 'shared';
  }

  /** The last Redis problem seen (redacted), if any. */
  get lastError(): string | undefined {
    return this.error;
  }

  noteError(error: unknown): void {
    const message = this.deps.redact(error);
    // a command refused while the connection is re-opened says nothing new: keep the cause (a
    // timeout that dropped the connection, a refused login) for health to show
    if (this.error !== undefined && message.startsWith("Stream isn't writeable")) return;
    this.error = message;
  }

  /** Returns an unsubscribe function. */
  onChange(listener: StatusListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Switches and tells the listeners (the caller knows the status changes). */
  switchTo(status: RouteStateSharing, reason?: string): void {
    this.sharing = status;
    const at = this.deps.clock();
    this.emit(reason === undefined ? { status, at } : { status, reason, at });
  }

  /** Closing: local-only without telling anyone, and nobody listens any more. */
  end(): void {
    this.sharing = 'local-only';
    this.listeners.clear();
  }

  /** Resolves true once shared, or with the status at the end of `timeoutMs`. */
  waitForShared(timeoutMs: number): Promise<boolean> {
    if (this.isShared()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        unsubscribe();
        resolve(this.isShared());
      }, timeoutMs);
      const unsubscribe = this.onChange((event) => {
        if (event.status !== 'shared') return;
        clearTimeout(timer);
        unsubscribe();
        resolve(true);
      });
    });
  }

  private emit(event: RouteStateStatusEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.deps.warn(`a status listener threw: ${this.deps.redact(error)}`);
      }
    }
  }
}
