import { type DynamicModule, Module, type Provider } from '@nestjs/common';
import { loadPromClient } from './load-prom-client.js';
import { MetricsChatInterceptor } from './metrics.chat-interceptor.js';
import { createModelRouterMetricsController } from './model-router-metrics.controller.js';
import { ModelRouterMetrics } from './model-router-metrics.js';
import { ModelRouterMetricsLifecycle } from './model-router-metrics-lifecycle.js';
import {
  ConfigurableModelRouterMetricsModule,
  type ModelRouterMetricsModuleAsyncOptions,
  type ModelRouterMetricsModuleOptions,
} from './model-router-metrics-module-definition.js';
import type { ModelRouterMetricsOptions } from './model-router-metrics-options.js';
import { MODEL_ROUTER_METRICS_OPTIONS } from './model-router-metrics.tokens.js';
import { validateMetricsOptions, validateMetricsPath } from './validate-metrics-options.js';

/**
 * Prometheus metrics of every RoutingChatService call (requests, durations, tokens, failures,
 * failovers, retries, decision failures) and of each model's state, read on scrape. Import it
 * beside ModelRouterModule; it loads prom-client (an optional peer dependency) when it starts.
 */
@Module({})
export class ModelRouterMetricsModule extends ConfigurableModelRouterMetricsModule {
  static override forRoot(options: ModelRouterMetricsModuleOptions = {}): DynamicModule {
    validateMetricsPath(options.path);
    return withProviders(super.forRoot(options), options.path);
  }

  static override forRootAsync(options: ModelRouterMetricsModuleAsyncOptions): DynamicModule {
    validateMetricsPath(options.path);
    return withProviders(super.forRootAsync(options), options.path);
  }
}

function withProviders(definition: DynamicModule, path: string | undefined): DynamicModule {
  const providers: Provider[] = [
    ...(definition.providers ?? []),
    {
      provide: ModelRouterMetrics,
      useFactory: async (options: ModelRouterMetricsOptions) => {
        validateMetricsOptions(options);
        return new ModelRouterMetrics(await loadPromClient(), options);
      },
      inject: [MODEL_ROUTER_METRICS_OPTIONS],
    },
    MetricsChatInterceptor,
    ModelRouterMetricsLifecycle,
  ];
  return {
    ...definition,
    providers,
    controllers: path === undefined ? [] : [createModelRouterMetricsController(path)],
    exports: [...(definition.exports ?? []), ModelRouterMetrics],
  };
}
