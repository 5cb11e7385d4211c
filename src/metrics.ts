// nest-model-router/metrics: Prometheus metrics on prom-client (an optional peer dependency).
// Kept out of the package root so that importing nest-model-router never needs prom-client.
export {
  ModelRouterMetricsModule,
  type ModelRouterMetricsModuleAsyncOptions,
  type ModelRouterMetricsModuleOptions,
  DEFAULT_METRICS_PREFIX,
  LLM_DURATION_BUCKETS,
  type ModelRouterMetricsModuleExtras,
  type ModelRouterMetricsOptions,
  ModelRouterMetrics,
  type FinishedCall,
  type FinishedEmbedding,
  type ModelRouterMetricNames,
  MetricsChatInterceptor,
  createModelRouterMetricsController,
  MODEL_ROUTER_METRICS_OPTIONS,
  MODEL_STATES,
  type CallOutcome,
  type MetricNameLabel,
} from './nest/metrics/index.js';
