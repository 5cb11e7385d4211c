import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, HttpAdapterHost } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import type { Registry } from 'prom-client';
import {
  type Clock,
  ModelRouterHealthModule,
  ModelRouterModule,
  ModelRouterRegistry,
  ModelRouterStatusModule,
} from 'nest-model-router';
import { configuredBreaker } from 'nest-model-router/config';
import { countersOf, LocalCounters } from 'nest-model-router/core';
// the subpath entry (nest-model-router/metrics), as an application would import it
import { ModelRouterMetrics, ModelRouterMetricsModule } from 'nest-model-router/metrics';
import { type GatewayConfig } from './config/gateway-config.js';
import { ApiKeys, withHashedKeys } from './auth/api-keys.js';
import { ApiKeyGuard, GATEWAY_API_KEYS } from './auth/api-key.guard.js';
import { KeyController } from './auth/key.controller.js';
import { FeedbackController } from './learning/feedback.controller.js';
import { FeedbackLimits } from './learning/feedback-limits.js';
import { ChatController } from './chat/chat.controller.js';
import { HealthController } from './health/health.controller.js';
import { CallFactsInterceptor } from './http/call-facts.interceptor.js';
import { configSecrets, SecretRedactor } from './http/config-secrets.js';
import {
  GATEWAY_CLOCK,
  GATEWAY_CONFIG,
  GATEWAY_REDACTOR,
  GATEWAY_TOOL_CALL_IDS,
} from './http/gateway-tokens.js';
import { OpenAiExceptionFilter } from './http/openai-exception.filter.js';
import { ShutdownGrace } from './http/shutdown-grace.js';
import { StreamBackpressure } from './http/stream-backpressure.js';
import { gatewayMetricLabels } from './models/gateway-metric-labels.js';
import { ModelResolver } from './models/model-resolver.js';
import { ModelsController } from './models/models.controller.js';
import { ProviderModels } from './models/provider-models.js';
import { KeyBudgets } from './limits/key-budgets.js';
import { keyLimitsSection } from './limits/key-limits-section.js';
import { KeyThrottlerGuard, keyThrottlers } from './limits/key-throttler.guard.js';
import { KeyThrottlerStorage } from './limits/key-throttler-storage.js';
import { ChatCompletionsController } from './openai/chat-completions.controller.js';
import { ToolCallIds } from './openai/tool-call-ids.js';
import { EmbeddingResolver } from './embeddings/embedding-resolver.js';
import { embeddingProviders } from './embeddings/embedding-providers.js';
import { EmbeddingsController } from './embeddings/embeddings.controller.js';
import { EmbeddingAccounting } from './embeddings/embedding-accounting.js';
import { ResponsesController } from './responses/responses.controller.js';
import { MessagesController } from './anthropic/messages.controller.js';

export interface GatewayModuleSettings {
  clock?: Clock;
  shutdownGraceMs?: number;
  /** How long a streaming client may read nothing before it is dropped; default 30 s. */
  streamStallMs?: number;
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
  static register(given: GatewayConfig, settings: GatewayModuleSettings = {}): DynamicModule {
    const { clock } = settings;
    const auth = given.auth === undefined || given.auth === 'none' ? undefined : given.auth;
    const keys = auth ? new ApiKeys(auth) : undefined;
    // what the application keeps (and could show) holds key digests only
    const config: GatewayConfig = auth ? { ...given, auth: withHashedKeys(auth) } : given;
    // per-key limits count on the state store's windowed counters (Redis: across replicas)
    const store = config.module.stateStore;
    const limits = new KeyThrottlerStorage(
      store ? countersOf(store) : new LocalCounters(clock ?? Date.now),
      clock ?? Date.now,
    );
    // the answer's tokens go to the key's tpm window; route and model stay in the call record
    // per-key spend on the library's budgets: each key's budget joins the module's ledger
    const budgets = new KeyBudgets(auth, given.module.budgets, clock ?? Date.now);
    // a request's worst case in its key's tpm window assumes the output the budgets assume
    limits.reserveOutputTokens = budgets.ledger.reserveOutputTokens;
    const callFacts = new CallFactsInterceptor(
      (request, tokens) => limits.recordTokensOf(request, tokens),
      budgets,
    );
    const redactor = new SecretRedactor(secretsOf(given));
    const moduleOptions = {
      ...config.module,
      budgets: budgets.ledger,
      interceptors: [callFacts, ...(config.module.interceptors ?? [])],
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
        ThrottlerModule.forRoot({ throttlers: keyThrottlers(), storage: limits }),
        // GET /router/status and /status: admin keys with auth (ApiKeyGuard), else loopback only
        ModelRouterStatusModule.forRoot({
          loopbackOnly: !keys,
          ...(auth ? { sections: [keyLimitsSection(auth, limits)] } : {}),
          redact: (text) => redactor.redact(text),
          ...(clock ? { clock } : {}),
        }),
      ],
      controllers: [
        ChatCompletionsController,
        ModelsController,
        ResponsesController,
        MessagesController,
        EmbeddingsController,
        ChatController,
        HealthController,
        KeyController,
        FeedbackController,
      ],
      providers: [
        ...(keys ? [{ provide: GATEWAY_API_KEYS, useValue: keys }] : []),
        // authentication first, then the key's limits (Nest runs global guards in this order)
        { provide: APP_GUARD, useClass: ApiKeyGuard },
        { provide: APP_GUARD, useClass: KeyThrottlerGuard },
        { provide: GATEWAY_TOOL_CALL_IDS, useValue: new ToolCallIds(config.toolCallSecret) },
        { provide: GATEWAY_REDACTOR, useValue: redactor },
        { provide: KeyThrottlerStorage, useValue: limits },
        { provide: KeyBudgets, useValue: budgets },
        { provide: GATEWAY_CONFIG, useValue: config },
        { provide: GATEWAY_CLOCK, useValue: moduleOptions.clock ?? Date.now },
        { provide: FeedbackLimits, useValue: new FeedbackLimits(moduleOptions.clock ?? Date.now) },
        {
          provide: ProviderModels,
          useFactory: () =>
            new ProviderModels(config.providers, {
              ...(clock ? { clock } : {}),
              ...(config.providerModels ? { allowedModels: config.providerModels } : {}),
            }),
        },
        {
          provide: ModelResolver,
          useFactory: (registry: ModelRouterRegistry, providers: ProviderModels) => {
            const resolver = new ModelResolver(registry, providers, {
              breaker: config.adHocFailover ?? configuredBreaker(),
              store: registry.stateStore,
              ...(clock ? { clock } : {}),
              budgets: registry.budgets,
            });
            // direct calls are priced as the answers are: the group's price, else the model's
            budgets.priceWith((model, response) => resolver.costOf(model, response));
            return resolver;
          },
          inject: [ModelRouterRegistry, ProviderModels],
        },
        {
          provide: ShutdownGrace,
          useFactory: (host: HttpAdapterHost) =>
            new ShutdownGrace(host, settings.shutdownGraceMs ?? 10_000),
          inject: [HttpAdapterHost],
        },
        {
          provide: StreamBackpressure,
          useValue: new StreamBackpressure(
            settings.streamStallMs !== undefined ? { stallMs: settings.streamStallMs } : {},
          ),
        },
        {
          provide: EmbeddingResolver,
          useFactory: (providers: ProviderModels) =>
            new EmbeddingResolver(
              config.embeddings ?? {},
              embeddingProviders(config.embeddingProviders ?? config.providers),
              (provider, modelId) => providers.refusal(provider, modelId),
            ),
          inject: [ProviderModels],
        },
        {
          provide: EmbeddingAccounting,
          useFactory: (metrics: ModelRouterMetrics) =>
            new EmbeddingAccounting(limits, budgets, metrics),
          inject: [ModelRouterMetrics],
        },
        { provide: APP_FILTER, useClass: OpenAiExceptionFilter },
      ],
    };
  }
}

/** What answers and logs must never carry: the configuration's secrets, clients' keys included. */
function secretsOf(config: GatewayConfig): Set<string> {
  const secrets = new Set<string>();
  for (const secret of config.secrets ?? []) configSecrets({ secret }, secrets);
  if (config.auth && config.auth !== 'none') configSecrets(config.auth, secrets);
  if (config.toolCallSecret) configSecrets({ secret: config.toolCallSecret }, secrets);
  return secrets;
}
