// The metrics module's public names, re-exported by src/metrics.ts (nest-model-router/metrics).
export { ModelRouterMetricsModule } from './model-router-metrics.module.js';
export type {
  ModelRouterMetricsModuleAsyncOptions,
  ModelRouterMetricsModuleOptions,
} from './model-router-metrics-module-definition.js';
export {
  DEFAULT_METRICS_PREFIX,
  LLM_DURATION_BUCKETS,
  type MetricNameLabel,
  type ModelRouterMetricsModuleExtras,
  type ModelRouterMetricsOptions,
} from './model-router-metrics-options.js';
export {
  ModelRouterMetrics,
  type FinishedCall,
  type FinishedEmbedding,
  type ModelRouterMetricNames,
} from './model-router-metrics.js';
export { MetricsChatInterceptor } from './metrics.chat-interceptor.js';
export { createModelRouterMetricsController } from './model-router-metrics.controller.js';
export { MODEL_ROUTER_METRICS_OPTIONS } from './model-router-metrics.tokens.js';
export { MODEL_STATES } from './model-state-gauge.js';
export type { CallOutcome } from './metric-labels.js';
