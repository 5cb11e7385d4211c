import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { InvalidConfigurationException } from '../../core/errors/exceptions.js';
import { ModelRouterRegistry } from '../module/model-router-registry.js';
import { teacherStatsOf } from '../service/decision-feedback.js';
import { ModelRouterMetrics } from './model-router-metrics.js';

/**
 * Connects the state gauge to the routers' inspection at start-up (the same view, and clock, as
 * the health check) and the decision metrics to the routers' target shares and teachers, and
 * takes the metrics out of the registry when the application closes, so a new application in
 * the same process can register them again.
 */
@Injectable()
export class ModelRouterMetricsLifecycle implements OnModuleInit, OnModuleDestroy {
  constructor(
    @Inject(ModelRouterMetrics) private readonly metrics: ModelRouterMetrics,
    private readonly moduleRef: ModuleRef,
  ) {}

  onModuleInit(): void {
    const registry = this.findRegistry();
    this.metrics.bindInspection(() => registry.inspect());
    this.metrics.bindRouteShares(() => registry.routeShares());
    this.metrics.bindTeacherStats(() =>
      teacherStatsOf(registry).map(({ router, stats }) => ({
        router,
        decisions: stats.decisions,
        taught: stats.taught,
        recent: stats.recent,
        recentTaught: stats.recentTaught,
      })),
    );
  }

  onModuleDestroy(): void {
    this.metrics.unregister();
  }

  private findRegistry(): ModelRouterRegistry {
    try {
      // strict: false finds ModelRouterModule whether it is global or imported beside this module
      return this.moduleRef.get(ModelRouterRegistry, { strict: false });
    } catch {
      throw new InvalidConfigurationException(
        'ModelRouterMetricsModule needs ModelRouterModule: import ModelRouterModule.forRoot(...) or forRootAsync(...) in the application',
      );
    }
  }
}
