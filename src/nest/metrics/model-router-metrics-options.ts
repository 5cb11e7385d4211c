import type { Registry } from 'prom-client';

/** The labels that carry a name: which one `labelFor` is asked about. */
export type MetricNameLabel = 'router' | 'route' | 'model';

export interface ModelRouterMetricsOptions {
  /**
   * Where the metrics are registered. Default: prom-client's global `register` (the one
   * `collectDefaultMetrics()` and most exporters use).
   */
  registry?: Registry;
  /** Prepended to every metric name. Default `model_router_`. */
  prefix?: string;
  /** Bucket bounds (seconds) of the request duration histogram. Default: LLM_DURATION_BUCKETS. */
  durationBuckets?: number[];
  /**
   * The label value of a router, route or model name (never called with an empty one). Give it
   * when clients choose names, so their names cannot mint unbounded series: e.g. fold ad-hoc
   * `provider/<model id>` names into `provider/*`. Its result is still scrubbed and capped; a
   * non-string result becomes `''`; if it throws, that record is lost (the call is unaffected).
   * A call's labels are kept per router, route and model, so it should depend on its arguments
   * only. Default: the name itself.
   */
  labelFor?: (name: string, label: MetricNameLabel) => string;
}

/** Options that shape the module itself (known before any async factory runs). */
export interface ModelRouterMetricsModuleExtras {
  /**
   * Serve the registry's text format at `GET /<path>` (e.g. `'metrics'`). Default: no endpoint;
   * inject ModelRouterMetrics and call `scrape()` from your own controller instead.
   */
  path?: string;
  isGlobal?: boolean;
}

export const DEFAULT_METRICS_PREFIX = 'model_router_';

/**
 * Chat calls take from a fraction of a second (small local models) to minutes (long streamed
 * answers), so the buckets reach further than prom-client's HTTP-oriented defaults.
 */
export const LLM_DURATION_BUCKETS: readonly number[] = [
  0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300,
];
