import { type DynamicModule, Module } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Clock } from '../../core/clock.js';
import { InvalidConfigurationException } from '../../core/errors/exceptions.js';
import { ModelRouterRegistry } from '../module/model-router-registry.js';
import { ModelRouterStatus, type StatusSection } from './model-router-status.js';
import { createModelRouterStatusControllers } from './model-router-status.controller.js';
import { featureSections } from './feature-sections.js';
import { StatusChatInterceptor } from './status.chat-interceptor.js';
import { DEFAULT_STATUS_WINDOW_MS, StatusWindow } from './status-window.js';

export interface ModelRouterStatusModuleOptions {
  /** The JSON's path (`GET /router/status`); `false` serves none. */
  path?: string | false;
  /** The page's path (`GET /status`); `false` serves none. */
  pagePath?: string | false;
  /**
   * Serve both to loopback callers only (default true). Set false once a guard of the app
   * protects them (the gateway's admin keys do).
   */
  loopbackOnly?: boolean;
  /** How far back the traffic figures look, in ms (default 5 minutes). */
  windowMs?: number;
  /** How often the page asks for the JSON, in ms: 250 to 2000 (default 1000). */
  pollMs?: number;
  /** The clock of the window (default `Date.now`). */
  clock?: Clock;
  /** How this replica names itself in the report (default `host:pid`). */
  replica?: string;
  /** Extra parts of the report (a cache's hit rate…), each under its name. */
  sections?: StatusSection[];
  /** Applied to error messages after the built-in credential scrubbing (e.g. known secrets). */
  redact?: (text: string) => string;
}

const PATH = /^[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/;

function validate(options: ModelRouterStatusModuleOptions): void {
  for (const field of ['path', 'pagePath'] as const) {
    const value = options[field];
    if (value !== undefined && value !== false && (typeof value !== 'string' || !PATH.test(value)))
      throw new InvalidConfigurationException(
        `ModelRouterStatusModule ${field}: a path like 'router/status' (no leading slash), or false`,
      );
  }
  const { windowMs, pollMs } = options;
  if (windowMs !== undefined && !(Number.isFinite(windowMs) && windowMs >= 1000))
    throw new InvalidConfigurationException('ModelRouterStatusModule windowMs: at least 1000 ms');
  if (pollMs !== undefined && !(Number.isFinite(pollMs) && pollMs >= 250 && pollMs <= 2000))
    throw new InvalidConfigurationException('ModelRouterStatusModule pollMs: 250 to 2000 ms');
}

/**
 * The status of the routers as JSON (`GET /router/status`) and as a live page (`GET /status`).
 * Import it beside ModelRouterModule (registered globally or imported with it). It records the
 * traffic of every RoutingChatService call in a bounded window, and reads circuits and budgets
 * where health does.
 */
@Module({})
// oxlint-disable-next-line typescript/no-extraneous-class -- a Nest module
export class ModelRouterStatusModule {
  static forRoot(options: ModelRouterStatusModuleOptions = {}): DynamicModule {
    validate(options);
    const window = new StatusWindow(
      options.clock ?? Date.now,
      options.windowMs ?? DEFAULT_STATUS_WINDOW_MS,
    );
    return {
      module: ModelRouterStatusModule,
      providers: [
        { provide: StatusWindow, useValue: window },
        StatusChatInterceptor,
        {
          provide: ModelRouterStatus,
          useFactory: (moduleRef: ModuleRef) => {
            let found: ModelRouterRegistry | undefined;
            const registry = () => (found ??= findRegistry(moduleRef));
            return new ModelRouterStatus(registry, window, {
              ...(options.replica !== undefined ? { replica: options.replica } : {}),
              ...(options.redact ? { redact: options.redact } : {}),
              sections: [...featureSections(registry, moduleRef), ...(options.sections ?? [])],
            });
          },
          inject: [ModuleRef],
        },
      ],
      controllers: createModelRouterStatusControllers({
        path: options.path ?? 'router/status',
        pagePath: options.pagePath ?? 'status',
        loopbackOnly: options.loopbackOnly ?? true,
        pollMs: options.pollMs ?? 1000,
      }),
      exports: [ModelRouterStatus],
    };
  }
}

function findRegistry(moduleRef: ModuleRef): ModelRouterRegistry {
  try {
    // strict: false finds ModelRouterModule whether it is global or imported beside this module
    return moduleRef.get(ModelRouterRegistry, { strict: false });
  } catch {
    throw new InvalidConfigurationException(
      'ModelRouterStatusModule needs ModelRouterModule: import ModelRouterModule.forRoot(...) or forRootAsync(...) in the application',
    );
  }
}
