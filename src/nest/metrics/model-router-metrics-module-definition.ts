import { ConfigurableModuleBuilder } from '@nestjs/common';
import type {
  ModelRouterMetricsModuleExtras,
  ModelRouterMetricsOptions,
} from './model-router-metrics-options.js';
import { MODEL_ROUTER_METRICS_OPTIONS } from './model-router-metrics.tokens.js';

export const {
  ConfigurableModuleClass: ConfigurableModelRouterMetricsModule,
  OPTIONS_TYPE: MODEL_ROUTER_METRICS_OPTIONS_TYPE,
  ASYNC_OPTIONS_TYPE: MODEL_ROUTER_METRICS_ASYNC_OPTIONS_TYPE,
} = new ConfigurableModuleBuilder<ModelRouterMetricsOptions>({
  optionsInjectionToken: MODEL_ROUTER_METRICS_OPTIONS,
})
  .setClassMethodName('forRoot')
  .setExtras<ModelRouterMetricsModuleExtras>({ isGlobal: false }, (definition, extras) => ({
    ...definition,
    global: extras.isGlobal === true,
  }))
  .build();

export type ModelRouterMetricsModuleAsyncOptions = typeof MODEL_ROUTER_METRICS_ASYNC_OPTIONS_TYPE;
export type ModelRouterMetricsModuleOptions = typeof MODEL_ROUTER_METRICS_OPTIONS_TYPE;
