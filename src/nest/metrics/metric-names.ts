/** The full name of each metric, after the prefix. */
export interface ModelRouterMetricNames {
  requests: string;
  requestDuration: string;
  tokens: string;
  estimatedUsage: string;
  modelFailures: string;
  failovers: string;
  retries: string;
  decisionFailures: string;
  modelState: string;
  cost: string;
  embeddingRequests: string;
  embeddingTokens: string;
  hedges: string;
  downgrades: string;
  routeShare: string;
  cacheLookups: string;
  cacheSavedUsd: string;
  teacherDecisions: string;
  teacherShare: string;
}

/** Every metric's name under `prefix` (`model_router_` by default). */
export function metricNames(prefix: string): ModelRouterMetricNames {
  return {
    requests: `${prefix}requests_total`,
    requestDuration: `${prefix}request_duration_seconds`,
    tokens: `${prefix}tokens_total`,
    estimatedUsage: `${prefix}estimated_usage_total`,
    modelFailures: `${prefix}model_failures_total`,
    failovers: `${prefix}failovers_total`,
    retries: `${prefix}retries_total`,
    decisionFailures: `${prefix}decision_failures_total`,
    modelState: `${prefix}model_state`,
    cost: `${prefix}cost_usd_total`,
    embeddingRequests: `${prefix}embedding_requests_total`,
    embeddingTokens: `${prefix}embedding_tokens_total`,
    hedges: `${prefix}hedges_total`,
    downgrades: `${prefix}budget_downgrades_total`,
    routeShare: `${prefix}route_share`,
    cacheLookups: `${prefix}cache_lookups_total`,
    cacheSavedUsd: `${prefix}cache_saved_usd_total`,
    teacherDecisions: `${prefix}teacher_decisions_total`,
    teacherShare: `${prefix}teacher_share`,
  };
}
