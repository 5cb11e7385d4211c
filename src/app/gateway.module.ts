import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, HttpAdapterHost } from '@nestjs/core';
import type { Registry } from 'prom-client';
import type { Clock } from '../core/clock.js';
import { ChatInterceptorChain } from '../nest/interceptors/chat-interceptor-chain.js';
import { ModelRouterHealthModule } from '../nest/health/model-router-health.module.js';
import { ModelRouterModule } from '../nest/module/model-router.module.js';
import { ModelRouterRegistry } from '../nest/module/model-router-registry.js';
// the subpath entry (nest-model-router/metrics), as an application would import it
import { ModelRouterMetricsModule } from '../metrics.js';
import { GatewayCallInterceptor } from './call/gateway-call.interceptor.js';
import { GatewayChatService } from './call/gateway-chat.service.js';
import { ModelAttemptTracker } from './call/model-attempt-tracker.js';
import { DEMO_BREAKER, type GatewayConfig } from './config/gateway-config.js';
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
    const tracker = new ModelAttemptTracker();
    const moduleOptions = {
      ...config.module,
      ...(clock ? { clock } : {}),
      interceptors: [...(config.module.interceptors ?? []), new GatewayCallInterceptor()],
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
          provide: GatewayChatService,
          useFactory: (registry: ModelRouterRegistry, chain: ChatInterceptorChain) =>
            new GatewayChatService(registry, chain, moduleOptions.clock),
          inject: [ModelRouterRegistry, ChatInterceptorChain],
        },
        {
          provide: ProviderModels,
          useFactory: () =>
            new ProviderModels(config.providers, {
              ...(clock ? { clock } : {}),
              created: (name, model) => tracker.track(name, model),
            }),
        },
        {
          provide: ModelResolver,
          useFactory: (registry: ModelRouterRegistry, providers: ProviderModels) => {
            for (const name of registry.modelNames()) tracker.track(name, registry.getModel(name)!);
            return new ModelResolver(registry, providers, {
              breaker: config.adHocFailover ?? DEMO_BREAKER,
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
