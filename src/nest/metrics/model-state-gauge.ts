import type { Gauge } from 'prom-client';
import type { ModelAvailability } from '../../core/inspection/inspection.js';
import type { RouterInspection } from '../module/model-router-registry.js';
import { nameLabel } from './metric-labels.js';
import type { MetricNameLabel } from './model-router-metrics-options.js';

export const MODEL_STATES: readonly ModelAvailability[] = ['available', 'cooldown', 'half-open'];

export type ModelStateLabel = 'router' | 'route' | 'model' | 'state';

/**
 * Rewrites the state gauge from a fresh inspection, on scrape: every model gets one series per
 * state, 1 for its current state and 0 for the others (a Prometheus "state set"), so
 * `model_router_model_state{state="cooldown"} == 1` selects the cooling models and a model's
 * series never disappear while it recovers.
 */
export function writeModelStates(
  gauge: Gauge<ModelStateLabel>,
  inspections: readonly RouterInspection[],
  label: (name: string | undefined, label: MetricNameLabel) => string = nameLabel,
): void {
  gauge.reset();
  for (const inspection of inspections) {
    for (const status of inspection.models) {
      const labels = {
        router: label(inspection.router, 'router'),
        route: label(status.route, 'route'),
        model: label(status.model, 'model'),
      };
      for (const state of MODEL_STATES) {
        gauge.set({ ...labels, state }, status.state === state ? 1 : 0);
      }
    }
  }
}
