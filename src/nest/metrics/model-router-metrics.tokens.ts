/** The options object given to `ModelRouterMetricsModule.forRoot`, or returned by the async factory. */
export const MODEL_ROUTER_METRICS_OPTIONS = 'MODEL_ROUTER_METRICS_OPTIONS';
