import { ConfigurableModuleBuilder } from '@nestjs/common';
import type {
  ModelRouterModuleExtras,
  ModelRouterModuleOptions,
} from './model-router-module-options.js';
import { MODEL_ROUTER_MODULE_OPTIONS } from './tokens.js';

export const {
  ConfigurableModuleClass: ConfigurableModelRouterModule,
  OPTIONS_TYPE: MODEL_ROUTER_OPTIONS_TYPE,
  ASYNC_OPTIONS_TYPE: MODEL_ROUTER_ASYNC_OPTIONS_TYPE,
} = new ConfigurableModuleBuilder<ModelRouterModuleOptions>({
  optionsInjectionToken: MODEL_ROUTER_MODULE_OPTIONS,
})
  .setClassMethodName('forRoot')
  .setExtras<ModelRouterModuleExtras>(
    { isGlobal: false, routerNames: [], modelNames: [] },
    (definition, extras) => ({ ...definition, global: extras.isGlobal === true }),
  )
  .build();

export type ModelRouterModuleAsyncOptions = typeof MODEL_ROUTER_ASYNC_OPTIONS_TYPE;
