import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, HttpAdapterHost } from '@nestjs/core';
import type { Registry } from 'prom-client';
import {
  type Clock,
  configuredBreaker,
  ModelRouterHealthModule,
  ModelRouterModule,
  ModelRouterRegistry,
} from 'nest-model-router';
// the subpath entry (nest-model-router/metrics), as an application would import it
import { ModelRouterMetricsModule } from 'nest-model-router/metrics';
import { type GatewayConfig } from './config/gateway-config.js';
import { ChatController } from './chat/chat.controller.js';
import { HealthController } from './health/health.controller.js';
import { GATEWAY_CLOCK, GATEWAY_CONFIG } from './http/gateway-tokens.js';
import { OpenAiExceptionFilter } from './http/openai-exception.filter.js';
import { ShutdownGrace } from './http/shutdown-grace.js';
import { gatewayMetricLabels } from './models/gateway-metric-labels.js';
import { ModelResolver } from './models/model-resolver.js';
import { ProviderModels } from './models/provider-models.js';
import { ChatCompletionsController } from './openai/chat-completions.controller.js';

export interface GatewayModuleSettings {
  clock?: Clock;
  shutdownGraceMs?: number;
  /** Where `GET /metrics` registers its metrics; default: prom-client's global `register`. */
  metricsRegistry?: Registry;
}

/**
 * The demo gateway: ModelRouterModule with the configuration, behind OpenAI's HTTP API, with
 * health and Prometheus metrics.
 */
@Module({})
// oxlint-disable-next-line typescript/no-extraneous-class -- a Nest module
export class GatewayModule {
  static register(config: GatewayConfig, settings: GatewayModuleSettings = {}): DynamicModule {
    const { clock } = settings;
    const moduleOptions = {
      ...config.module,
      ...(clock ? { clock } : {}),
    };
    return {
      module: GatewayModule,
      imports: [
        ModelRouterModule.forRoot(moduleOptions),
        ModelRouterHealthModule,
        ModelRouterMetricsModule.forRoot({
          path: 'metrics',
          labelFor: gatewayMetricLabels(config),
          ...(settings.metricsRegistry ? { registry: settings.metricsRegistry } : {}),
        }),
      ],
      controllers: [ChatCompletionsController, ChatController, HealthController],
      providers: [
        { provide: GATEWAY_CONFIG, useValue: config },
        { provide: GATEWAY_CLOCK, useValue: moduleOptions.clock ?? Date.now },
        {
          provide: ProviderModels,
          useFactory: () => new ProviderModels(config.providers, clock ? { clock } : {}),
        },
        {
          provide: ModelResolver,
          useFactory: (registry: ModelRouterRegistry, providers: ProviderModels) => {
            return new ModelResolver(registry, providers, {
              breaker: config.adHocFailover ?? configuredBreaker(),
              store: registry.stateStore,
              ...(clock ? { clock } : {}),
            });
          },
          inject: [ModelRouterRegistry, ProviderModels],
        },
        {
          provide: ShutdownGrace,
          useFactory: (host: HttpAdapterHost) =>
            new ShutdownGrace(host, settings.shutdownGraceMs ?? 10_000),
          inject: [HttpAdapterHost],
        },
        { provide: APP_FILTER, useClass: OpenAiExceptionFilter },
      ],
    };
  }
}
