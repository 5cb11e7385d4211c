import type { CircuitState, RoutingEvent } from '../observability/routing-event.js';
import type { CircuitChange } from './circuit-update.js';

/**
 * The routing events a committed circuit change means, in order: the cooldown started, the
 * cooldown ended, the circuit changed state. `base` names the model (and its route).
 */
export function eventsOfChange(
  base: { route?: string; model: string },
  { before, after }: CircuitChange,
): RoutingEvent[] {
  const events: RoutingEvent[] = [];
  if (after.state === 'open' && before.state !== 'open') {
    events.push({
      type: 'cooldown-started',
      ...base,
      cooldownUntil: after.cooldownUntil!,
      failures: after.failures,
      ...(after.lastError
        ? { error: { name: after.lastError.name, message: after.lastError.message } }
        : {}),
    });
  }
  if (before.state === 'open' && after.state !== 'open') {
    events.push({ type: 'cooldown-ended', ...base });
  }
  if (before.state !== after.state) {
    events.push({
      type: 'circuit-changed',
      ...base,
      from: before.state as CircuitState,
      to: after.state as CircuitState,
    });
  }
  return events;
}
