import type { ChatRequest } from '../../chat/request.js';
import type { ChatResponse } from '../../chat/response.js';
import type { ChatModelWrapper } from '../../group/chat-model-wrapper.js';
import type { StrategyCallContext } from '../model-routing-strategy.js';
import { Balancer } from './balancer.js';

/**
 * The model with the fewest requests in flight (ties: the first registered). In-flight counts
 * are store counters, so with a shared store they are counted across replicas (other replicas'
 * counts arrive within the store's refresh interval; this replica's own at once).
 */
export class LeastBusyBalancer extends Balancer {
  readonly name = 'least-busy' as const;
  /** The counter each in-flight attempt holds, keyed by the attempt's context. */
  private readonly held = new WeakMap<object, string>();

  inFlight(model: ChatModelWrapper | string): number {
    return Math.max(0, this.store.getTokens(this.key(model, 'busy')));
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
    const key = this.key(model, 'busy');
    this.held.set(context, key);
    this.add(key, 1);
  }

  private release(context: object | undefined): void {
    if (!context) return;
    const key = this.held.get(context);
    if (key === undefined) return;
    this.held.delete(context);
    this.add(key, -1);
  }

  private add(key: string, delta: number): void {
    try {
      void Promise.resolve(this.store.addTokens(key, delta)).catch(() => undefined);
    } catch {
      // counting is best effort: a store failure must not fail the call
    }
  }
}
