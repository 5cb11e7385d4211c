import type { ModelStatus } from '../inspection/inspection.js';
import type { CircuitPolicy } from '../circuit/circuit-policy.js';
import { isCoolingDown } from '../circuit/circuit-transitions.js';
import type { CircuitRecord } from '../state/route-state-store.js';

/** How health and status pages see one model's circuit at `now`. */
export function circuitStatus(
  model: string,
  record: CircuitRecord,
  now: number,
  policy: CircuitPolicy,
): ModelStatus {
  const coolingDown = isCoolingDown(record, now);
  const status: ModelStatus = {
    model,
    state: record.state === 'closed' ? 'available' : coolingDown ? 'cooldown' : 'half-open',
    failures: record.failures,
  };
  if (status.state === 'cooldown') status.cooldownUntil = record.cooldownUntil!;
  if (record.lastError) {
    status.lastError = { name: record.lastError.name, message: record.lastError.message };
  }
  if (record.windowRequests !== undefined && policy.failureRate) {
    const calls = record.windowRequests;
    status.window = {
      calls,
      failureRate: calls === 0 ? 0 : (record.windowFailures ?? 0) / calls,
      slowCallRate: calls === 0 ? 0 : (record.windowSlow ?? 0) / calls,
    };
  }
  return status;
}
