import { type DynamicModule, Module, type Provider } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { RouteStateStore } from '../../core/state/route-state-store.js';
import { InvalidConfigurationException } from '../../core/errors/exceptions.js';
import { ModelRouterEventPublisher } from '../events/model-router-event-publisher.js';
import { ModelRoutingInterceptor } from '../http/model-routing.interceptor.js';
import { ChatInterceptorChain } from '../interceptors/chat-interceptor-chain.js';
import { EventsChatInterceptor } from '../interceptors/events.chat-interceptor.js';
import { TimingChatInterceptor } from '../interceptors/timing.chat-interceptor.js';
import { RoutingChatService } from '../service/routing-chat.service.js';
import { ModelRouterLifecycle } from './model-router-lifecycle.js';
import {
  ConfigurableModelRouterModule,
  MODEL_ROUTER_ASYNC_OPTIONS_TYPE,
  MODEL_ROUTER_OPTIONS_TYPE,
} from './model-router-module-definition.js';
import type {
  ModelRouterModuleExtras,
  ModelRouterModuleOptions,
} from './model-router-module-options.js';
import { ModelRouterRegistry } from './model-router-registry.js';
import { getChatModelToken, getRouterToken, MODEL_ROUTER_MODULE_OPTIONS } from './tokens.js';

const MODEL_ROUTER_MODULE_EXTRAS = 'MODEL_ROUTER_MODULE_EXTRAS';

const SERVICES = [
  ModelRouterEventPublisher,
  EventsChatInterceptor,
  TimingChatInterceptor,
  ChatInterceptorChain,
  RoutingChatService,
  ModelRoutingInterceptor,
];

/**
 * Registers routers and models as providers, validates them at start-up, hands them the shared
 * RouteStateStore, and provides RoutingChatService with its chat interceptor chain.
 *
 * `forRoot(options)` knows every name; `forRootAsync` needs `routerNames` / `modelNames` for the
 * routers and models it should provide under their own tokens (RoutingChatService reaches every
 * router the factory returns either way).
 */
@Module({})
export class ModelRouterModule extends ConfigurableModelRouterModule {
  static forRoot(options: typeof MODEL_ROUTER_OPTIONS_TYPE): DynamicModule {
    if (typeof options !== 'object' || options === null) {
      throw new InvalidConfigurationException(
        'ModelRouterModule.forRoot(options) needs an options object with `routers`',
      );
    }
    return withProviders(super.forRoot(options), {
      isGlobal: options.isGlobal,
      routerNames: namesOf(options.routers),
      modelNames: namesOf(options.models),
    });
  }

  static forRootAsync(options: typeof MODEL_ROUTER_ASYNC_OPTIONS_TYPE): DynamicModule {
    return withProviders(super.forRootAsync(options), {
      isGlobal: options.isGlobal,
      routerNames: [...(options.routerNames ?? [])],
      modelNames: [...(options.modelNames ?? [])],
    });
  }
}

function withProviders(definition: DynamicModule, extras: ModelRouterModuleExtras): DynamicModule {
  const named: Provider[] = [
    ...(extras.routerNames ?? []).map((name) => ({
      provide: getRouterToken(name),
      useFactory: (registry: ModelRouterRegistry) => registry.getRouter(name),
      inject: [ModelRouterRegistry],
    })),
    ...(extras.modelNames ?? []).map((name) => ({
      provide: getChatModelToken(name),
      useFactory: (registry: ModelRouterRegistry) => registry.getModel(name),
      inject: [ModelRouterRegistry],
    })),
  ];
  const providers: Provider[] = [
    ...(definition.providers ?? []),
    { provide: MODEL_ROUTER_MODULE_EXTRAS, useValue: extras },
    {
      provide: ModelRouterRegistry,
      // runs while the application starts: a bad configuration stops it here
      useFactory: (options: ModelRouterModuleOptions, moduleExtras: ModelRouterModuleExtras) =>
        new ModelRouterRegistry(options, moduleExtras),
      inject: [MODEL_ROUTER_MODULE_OPTIONS, MODEL_ROUTER_MODULE_EXTRAS],
    },
    {
      provide: RouteStateStore,
      useFactory: (registry: ModelRouterRegistry) => registry.stateStore,
      inject: [ModelRouterRegistry],
    },
    ...SERVICES,
    ModelRouterLifecycle,
    ...named,
  ];
  return {
    ...definition,
    imports: [...(definition.imports ?? []), DiscoveryModule],
    providers,
    exports: [
      ...(definition.exports ?? []),
      ModelRouterRegistry,
      RouteStateStore,
      ...SERVICES,
      ...named.map((provider) => (provider as { provide: string }).provide),
    ],
  };
}

function namesOf(record: Record<string, unknown> | undefined): string[] {
  return typeof record === 'object' && record !== null ? Object.keys(record) : [];
}
