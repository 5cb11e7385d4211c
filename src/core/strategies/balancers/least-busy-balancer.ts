import type { ChatRequest } from '../../chat/request.js';
import type { ChatResponse } from '../../chat/response.js';
import type { ChatModelWrapper } from '../../chat/chat-model-wrapper.js';
import { InvalidConfigurationException } from '../../errors/exceptions.js';
import type { StrategyCallContext } from '../model-routing-strategy.js';
import { countersOf, type CounterWindow } from '../../state/counter-store.js';
import { Balancer, type BalancerOptions } from './balancer.js';

export interface LeastBusyBalancerOptions extends BalancerOptions {
  /**
   * A call still unfinished after one to two of these is no longer counted: what a replica that
   * died with calls in flight leaves behind expires instead of weighing on its models for ever.
   * Default 5 minutes; set it above your longest call.
   */
  windowMs?: number;
}

/**
 * The model with the fewest requests in flight (ties: the first registered). A call counts +1
 * in the store's window of its start and −1 in the same window when it ends; in flight is the
 * sum of the current and the previous window. So with a shared store calls are counted across
 * replicas (other replicas' within the store's refresh interval, this replica's own at once), and
 * the count of a replica that died mid-call expires with its windows.
 */
export class LeastBusyBalancer extends Balancer {
  readonly name = 'least-busy' as const;
  protected override readonly spreads = true;
  private readonly windowMs: number;
  /** The counter and window each in-flight attempt holds, keyed by the attempt's context. */
  private readonly held = new WeakMap<object, { key: string; startedAt: number }>();

  constructor(options: LeastBusyBalancerOptions = {}) {
    super(options);
    this.windowMs = options?.windowMs ?? 300_000;
    if (!(this.windowMs > 0)) {
      throw new InvalidConfigurationException(
        `windowMs must be positive; got ${String(this.windowMs)}.`,
      );
    }
  }

  inFlight(model: ChatModelWrapper | string): number {
    const counters = countersOf(this.store);
    const key = this.key(model, 'busy');
    const now = this.clock();
    const current = counters.getWindow(key, this.window(now));
    const previous = counters.getWindow(key, this.window(now - this.windowMs));
    return Math.max(0, current + previous);
  }

  onSuccess(
    _model: ChatModelWrapper,
    _response: ChatResponse,
    _request: ChatRequest,
    context?: StrategyCallContext,
  ): void {
    this.release(context);
  }

  onFailure(
    _model: ChatModelWrapper,
    _error: unknown,
    _request: ChatRequest,
    context?: StrategyCallContext,
  ): void {
    this.release(context);
  }

  onCancel(
    _model: ChatModelWrapper,
    _reason: unknown,
    _request: ChatRequest,
    context?: StrategyCallContext,
  ): void {
    this.release(context);
  }

  protected pick(models: readonly ChatModelWrapper[]): ChatModelWrapper {
    let best = models[0]!;
    let fewest = this.inFlight(best);
    for (let i = 1; i < models.length; i++) {
      const busy = this.inFlight(models[i]!);
      if (busy < fewest) {
        best = models[i]!;
        fewest = busy;
      }
    }
    return best;
  }

  protected override dispatched(
    model: ChatModelWrapper,
    _request: ChatRequest,
    context: StrategyCallContext | undefined,
  ): void {
    // without a context nothing would ever release the count: only router calls are counted
    if (!context) return;
    this.release(context);
    const held = { key: this.key(model, 'busy'), startedAt: this.clock() };
    this.held.set(context, held);
    this.add(held.key, 1, held.startedAt);
  }

  private release(context: object | undefined): void {
    if (!context) return;
    const held = this.held.get(context);
    if (held === undefined) return;
    this.held.delete(context);
    this.add(held.key, -1, held.startedAt);
  }

  private window(now: number): CounterWindow {
    return { windowMs: this.windowMs, now };
  }

  private add(key: string, delta: number, startedAt: number): void {
    try {
      const added = countersOf(this.store).addToWindow(key, delta, this.window(startedAt));
      if (added instanceof Promise) added.catch(() => undefined);
    } catch {
      // counting is best effort: a store failure must not fail the call
    }
  }
}
