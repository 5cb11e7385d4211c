import { emitTo, type RoutingEvent, type RoutingObserver } from '../observability/routing-event.js';
import type { StrategyCallContext } from './model-routing-strategy.js';

/**
 * Where a strategy's events go. An event noticed inside a call goes to that call's observer; one
 * noticed outside a call (a health check reading state) or in a call without an observer goes to
 * the strategy's own listeners. So each event reaches a subscriber exactly once when it both
 * passes an observer with its calls and listens with `onEvent` (as the Nest module does).
 */
export class StrategyEvents {
  private readonly listeners = new Set<RoutingObserver>();

  on(listener: RoutingObserver): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  deliver(event: RoutingEvent, context?: StrategyCallContext): void {
    if (context?.observer) {
      emitTo(context.observer, event);
      return;
    }
    for (const listener of this.listeners) emitTo(listener, event);
  }
}
