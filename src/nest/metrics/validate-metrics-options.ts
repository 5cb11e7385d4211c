import { InvalidConfigurationException } from '../../core/errors/exceptions.js';
import type { ModelRouterMetricsOptions } from './model-router-metrics-options.js';

const METRIC_NAME_PREFIX = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;

/** Checks the options at start-up and reports every problem at once, each naming its field. */
export function validateMetricsOptions(options: ModelRouterMetricsOptions | undefined): void {
  if (options === undefined) return;
  if (typeof options !== 'object' || options === null) {
    throw new InvalidConfigurationException(
      'ModelRouterMetricsModule options must be an object (or omitted for the defaults)',
    );
  }
  const problems: string[] = [];
  const { prefix, registry, durationBuckets, labelFor } = options;
  // an empty prefix is allowed: names become requests_total, … (the user's own namespace)
  if (prefix !== undefined && (typeof prefix !== 'string' || !matchesPrefix(prefix))) {
    problems.push(
      `prefix: '${String(prefix)}' is not a valid Prometheus metric name start; use letters, digits, '_' or ':' and do not start with a digit (e.g. 'model_router_')`,
    );
  }
  if (
    registry !== undefined &&
    (typeof registry !== 'object' ||
      registry === null ||
      typeof (registry as { registerMetric?: unknown }).registerMetric !== 'function')
  ) {
    problems.push('registry: not a prom-client Registry (pass new Registry() or omit it)');
  }
  if (durationBuckets !== undefined) {
    const valid =
      Array.isArray(durationBuckets) &&
      durationBuckets.length > 0 &&
      durationBuckets.every(
        (bound, index) =>
          typeof bound === 'number' &&
          Number.isFinite(bound) &&
          bound > 0 &&
          (index === 0 || bound > durationBuckets[index - 1]),
      );
    if (!valid) {
      problems.push(
        'durationBuckets: must be a non-empty list of increasing positive numbers of seconds',
      );
    }
  }
  if (labelFor !== undefined && typeof labelFor !== 'function') {
    problems.push('labelFor: must be a function (name, label) => string, or omitted');
  }
  if (problems.length > 0) {
    throw new InvalidConfigurationException(
      `Invalid ModelRouterMetricsModule options:\n  - ${problems.join('\n  - ')}`,
    );
  }
}

function matchesPrefix(prefix: string): boolean {
  return prefix === '' || METRIC_NAME_PREFIX.test(prefix);
}

/** The endpoint path (from the module extras): a plain path, no query, no parameters. */
export function validateMetricsPath(path: unknown): void {
  if (path === undefined) return;
  if (typeof path !== 'string' || !/^\/?[A-Za-z0-9._~\-/]+$/.test(path) || path.includes('//')) {
    throw new InvalidConfigurationException(
      `ModelRouterMetricsModule path: '${String(path)}' is not a plain URL path; use e.g. 'metrics' (served as GET /metrics) or omit it`,
    );
  }
}
