import { randomUUID } from 'node:crypto';
import { InvalidChatRequestException } from '../../core/errors/invalid-chat-request.exception.js';
import { ProviderException } from '../../core/errors/provider-exception.js';
import { MODEL_ROUTER_SERVICE } from './remote-model-router.exception.js';

/** A connection whose closing ends the calls it carries (a TCP socket); any emitter of `close`. */
export interface CallConnection {
  once(event: 'close', listener: () => void): unknown;
  /** A TCP socket's: replies are small and latency-bound, so they skip Nagle's delay. */
  setNoDelay?(noDelay: boolean): unknown;
}

export interface RunningCall {
  readonly id: string;
  readonly signal: AbortSignal;
  /** Forgets the call (it settled). Safe to call twice. */
  release(): void;
}

export interface RunningCallsOptions {
  /** Calls running at once; one more is refused as rate-limited. Default 10 000. */
  maxCalls?: number;
  /** Ids remembered as cancelled before their call arrived. Default 1 024. */
  maxEarlyCancels?: number;
}

/**
 * The calls the service is running, by the id their client chose: CANCEL aborts one, the
 * connection that carried it closing aborts it, and shutting down aborts them all. Bounded: at
 * most `maxCalls` run at once, and a CANCEL that overtakes its call (transports that do not keep
 * order across channels) is remembered among the last `maxEarlyCancels` only.
 */
export class RunningCalls {
  private readonly calls = new Map<string, AbortController>();
  private readonly earlyCancels = new Set<string>();
  private readonly byConnection = new WeakMap<CallConnection, Set<string>>();
  private readonly maxCalls: number;
  private readonly maxEarlyCancels: number;

  constructor(options: RunningCallsOptions = {}) {
    this.maxCalls = options.maxCalls ?? 10_000;
    this.maxEarlyCancels = options.maxEarlyCancels ?? 1_024;
  }

  get size(): number {
    return this.calls.size;
  }

  /** Registers a call; its signal aborts on CANCEL, on its connection closing, on shutdown. */
  start(callId: string | undefined, connection?: CallConnection): RunningCall {
    const id = callId ?? `local-${randomUUID()}`;
    if (this.calls.has(id)) {
      throw new InvalidChatRequestException(
        `A call with callId '${id}' is already running; give every call its own id (a UUID)`,
      );
    }
    if (this.calls.size >= this.maxCalls) {
      throw new ProviderException(
        `The model router service is running its maximum of ${this.maxCalls} calls; try again shortly`,
        { kind: 'rate-limited', provider: MODEL_ROUTER_SERVICE, status: 429 },
      );
    }
    const controller = new AbortController();
    this.calls.set(id, controller);
    if (this.earlyCancels.delete(id)) controller.abort(cancelled(id));
    const connectionIds = connection ? this.track(connection, id) : undefined;
    let released = false;
    return {
      id,
      signal: controller.signal,
      release: () => {
        if (released) return;
        released = true;
        connectionIds?.delete(id);
        if (this.calls.get(id) === controller) this.calls.delete(id);
      },
    };
  }

  /** Aborts the running call `callId`; false when none runs (it is remembered for a while). */
  cancel(callId: string): boolean {
    const controller = this.calls.get(callId);
    if (!controller) {
      this.rememberEarlyCancel(callId);
      return false;
    }
    this.calls.delete(callId);
    controller.abort(cancelled(callId));
    return true;
  }

  /** Aborts every running call (the service is shutting down). */
  abortAll(reason: string): void {
    const controllers = [...this.calls.values()];
    this.calls.clear();
    this.earlyCancels.clear();
    for (const controller of controllers) {
      controller.abort(new DOMException(reason, 'AbortError'));
    }
  }

  /** The ids of the calls running over `connection`, `id` added. */
  private track(connection: CallConnection, id: string): Set<string> {
    let ids = this.byConnection.get(connection);
    if (!ids) {
      const tracked = new Set<string>();
      ids = tracked;
      this.byConnection.set(connection, tracked);
      // measured (bench/microservice.bench.ts): 64 calls in flight over loopback TCP went from
      // about 1 200 to 10 000 calls/s, Nagle and delayed ACKs no longer holding replies back
      connection.setNoDelay?.(true);
      // one listener per connection, however many calls it carries
      connection.once('close', () => {
        this.byConnection.delete(connection);
        for (const callId of tracked) {
          const controller = this.calls.get(callId);
          if (!controller) continue;
          this.calls.delete(callId);
          controller.abort(new DOMException('The client connection closed', 'AbortError'));
        }
      });
    }
    ids.add(id);
    return ids;
  }

  private rememberEarlyCancel(callId: string): void {
    this.earlyCancels.add(callId);
    if (this.earlyCancels.size > this.maxEarlyCancels) {
      const oldest = this.earlyCancels.values().next().value;
      if (oldest !== undefined) this.earlyCancels.delete(oldest);
    }
  }
}

function cancelled(callId: string): DOMException {
  return new DOMException(`Call '${callId}' was cancelled by its client`, 'AbortError');
}

/** The connection a call arrived on, when the transport has one per client (TCP's socket). */
export function connectionOf(context: unknown): CallConnection | undefined {
  const socketRef = (context as { getSocketRef?: () => unknown } | undefined)?.getSocketRef?.();
  const socket = (socketRef as { netSocket?: unknown } | undefined)?.netSocket;
  return typeof (socket as { once?: unknown } | undefined)?.once === 'function'
    ? (socket as CallConnection)
    : undefined;
}
