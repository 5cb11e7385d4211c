import { isNativeError } from 'node:util/types';
import type { Subscription } from 'rxjs';
import { abortReason } from '../../core/chat/abort.js';
import { ModelTimeoutException } from '../../core/errors/timeout-exception.js';
import type { ModelRouterClient } from './model-router-client.js';
import { MODEL_ROUTER_PATTERNS } from './model-router-patterns.js';
import { boundedMessage, fromRemoteError, isRemoteErrorData } from './remote-error-codec.js';
import { RemoteModelRouterException } from './remote-model-router.exception.js';

/** How long a CANCEL waits for its (ignored) reply before its subscription is dropped. */
const CANCEL_REPLY_WAIT_MS = 10_000;

export interface RemoteCallInit {
  client: ModelRouterClient;
  pattern: string;
  callId: string;
  payload: object;
  /** For messages: `router 'main'` or `the default router`. */
  target: string;
  signal?: AbortSignal;
  /** The bound on the whole call (`deadline`) or on each wait for the next reply (`idle`). */
  timeoutMs?: number;
  timeoutPhase: 'deadline' | 'idle';
}

/**
 * One request sent with `client.send`, read as an async iterator of its replies. The caller's
 * abort, the timeout, or closing it before the service finished unsubscribes and sends CANCEL
 * with the call id, so the service aborts the provider call instead of finishing it for nobody.
 */
export class RemoteCall<T> {
  private readonly replies: T[] = [];
  private failure: { error: unknown } | undefined;
  private ended = false;
  /** The service finished the call (its last reply or its error came). */
  private settled = false;
  private cancelled = false;
  private waiter:
    { resolve(result: IteratorResult<T>): void; reject(error: unknown): void } | undefined;
  private subscription: Subscription | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly onAbort = () => this.abandon(abortReason(this.init.signal as AbortSignal));

  constructor(private readonly init: RemoteCallInit) {}

  start(): this {
    const { signal } = this.init;
    if (signal?.aborted) {
      // nothing was sent: nothing to cancel
      this.settled = true;
      this.fail(abortReason(signal));
      return this;
    }
    signal?.addEventListener('abort', this.onAbort, { once: true });
    this.arm();
    this.subscription = this.init.client.send<T>(this.init.pattern, this.init.payload).subscribe({
      next: (reply) => {
        if (this.init.timeoutPhase === 'idle') this.arm();
        this.push(reply);
      },
      error: (error: unknown) => {
        this.settled = true;
        this.fail(this.fromTransport(error));
      },
      complete: () => {
        this.settled = true;
        this.end();
      },
    });
    return this;
  }

  next(): Promise<IteratorResult<T>> {
    if (this.replies.length > 0)
      return Promise.resolve({ done: false, value: this.replies.shift()! });
    if (this.failure) return Promise.reject(this.failure.error);
    if (this.ended) return Promise.resolve({ done: true, value: undefined });
    return new Promise((resolve, reject) => (this.waiter = { resolve, reject }));
  }

  /** The caller is done with it: a call the service has not finished is cancelled there. */
  close(): void {
    if (!this.settled) this.cancelRemote();
    this.cleanUp();
  }

  /** Stops waiting with `error` and cancels the call on the service. */
  private abandon(error: unknown): void {
    if (this.failure || this.ended) return;
    this.cancelRemote();
    this.fail(error);
  }

  private cancelRemote(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.settled = true;
    this.subscription?.unsubscribe();
    let waiting: Subscription | undefined;
    const stopWaiting = setTimeout(() => waiting?.unsubscribe(), CANCEL_REPLY_WAIT_MS);
    stopWaiting.unref?.();
    // fire and forget: a lost CANCEL leaves the call to the service's own bounds
    waiting = this.init.client
      .send(MODEL_ROUTER_PATTERNS.CANCEL, { callId: this.init.callId })
      .subscribe({
        error: () => clearTimeout(stopWaiting),
        complete: () => clearTimeout(stopWaiting),
      });
  }

  private arm(): void {
    const { timeoutMs } = this.init;
    if (timeoutMs === undefined) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.abandon(this.timeout(timeoutMs)), timeoutMs);
  }

  private timeout(timeoutMs: number): ModelTimeoutException {
    const error = new ModelTimeoutException(this.init.timeoutPhase, timeoutMs);
    error.message =
      `The model router service did not answer ${this.init.pattern} within ${timeoutMs} ms ` +
      `(${this.init.target}${this.init.timeoutPhase === 'idle' ? ', waiting for the next stream event' : ''}); ` +
      'is it running and reachable on this transport?';
    return error;
  }

  private push(reply: T): void {
    if (this.failure || this.ended) return;
    if (this.waiter) {
      const { resolve } = this.waiter;
      this.waiter = undefined;
      resolve({ done: false, value: reply });
    } else {
      this.replies.push(reply);
    }
  }

  private fail(error: unknown): void {
    if (this.failure || this.ended) return;
    this.failure = { error };
    this.cleanUp();
    if (this.waiter) {
      const { reject } = this.waiter;
      this.waiter = undefined;
      reject(error);
    }
  }

  private end(): void {
    if (this.failure || this.ended) return;
    this.ended = true;
    this.cleanUp();
    if (this.waiter) {
      const { resolve } = this.waiter;
      this.waiter = undefined;
      resolve({ done: true, value: undefined });
    }
  }

  private cleanUp(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.init.signal?.removeEventListener('abort', this.onAbort);
  }

  /** What the transport delivered as the call's error, as the error to throw. */
  private fromTransport(error: unknown): Error {
    // an Error object is the client's own (connection) failure; the service's errors are data
    const ownFailure = isNativeError(error) || error instanceof Error;
    if (!ownFailure && isRemoteErrorData(error)) return fromRemoteError(error);
    const { pattern, target } = this.init;
    if (typeof error === 'string') {
      // Nest's own answer, e.g. "There is no matching message handler defined in the remote service."
      const missingHandler = /no matching (message )?handler/i.test(error);
      return new RemoteModelRouterException(
        boundedMessage(
          `The model router service answered ${pattern} (${target}) with: ${error}` +
            (missingHandler ? ' Is ModelRouterMicroserviceModule imported in that service?' : ''),
        ),
        { kind: missingHandler ? 'misconfigured' : 'unknown' },
      );
    }
    const fields = (typeof error === 'object' && error !== null ? error : {}) as {
      message?: unknown;
      code?: unknown;
    };
    const detail = typeof fields.message === 'string' ? fields.message : String(error);
    if (ownFailure) {
      // the connection was refused, reset or closed: the call did not (or may not have) run
      return new RemoteModelRouterException(
        boundedMessage(
          `The model router service could not be reached for ${pattern} (${target}): ${detail}`,
        ),
        {
          kind: 'transient',
          ...(typeof fields.code === 'string' ? { code: fields.code } : {}),
        },
      );
    }
    // e.g. { status: 'error', message: 'Internal server error' }: a failure outside the handlers
    return new RemoteModelRouterException(
      boundedMessage(`The model router service failed ${pattern} (${target}): ${detail}`),
      { kind: 'unknown' },
    );
  }
}
