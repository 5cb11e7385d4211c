import { Injectable, type OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { HealthIndicatorService } from '@nestjs/terminus';
import { InvalidConfigurationException } from '../../core/errors/exceptions.js';
import { ModelRouterRegistry } from '../module/model-router-registry.js';
import { registryHealthReport, type HealthReport } from './health-report.js';

/**
 * Terminus health of every router: `up` when nothing cools down, `degraded` (HTTP 200) when some
 * models cool down but every router can still serve, `down` (HTTP 503) when a router has nothing
 * left. Details: `routers.<router>.models.<model>` with state, cooldownUntil, failures and the
 * last error, and `stateStore` (shared or local). State is read through the routers' own
 * inspection, so the strategies' clock (an injected one in tests) drives it.
 */
@Injectable()
export class ModelRouterHealthIndicator implements OnModuleInit {
  private registry: ModelRouterRegistry | undefined;

  constructor(
    private readonly health: HealthIndicatorService,
    private readonly moduleRef: ModuleRef,
  ) {}

  onModuleInit(): void {
    this.registry = this.findRegistry();
  }

  async isHealthy(key = 'model-router') {
    const { status, routers, stateStore, budgets, models } = this.report();
    const session = this.health.check(key);
    const details = {
      routers,
      stateStore,
      ...(budgets ? { budgets } : {}),
      ...(models ? { models } : {}),
    };
    if (status === 'down') return session.down(details);
    if (status === 'degraded') return session.degraded(details);
    return session.up(details);
  }

  /** The same view as a plain object (for custom endpoints and logs). */
  report(): HealthReport {
    const registry = (this.registry ??= this.findRegistry());
    return registryHealthReport(registry);
  }

  private findRegistry(): ModelRouterRegistry {
    try {
      // strict: false finds ModelRouterModule whether it is global or imported beside this module
      return this.moduleRef.get(ModelRouterRegistry, { strict: false });
    } catch {
      throw new InvalidConfigurationException(
        'ModelRouterHealthIndicator needs ModelRouterModule: import ModelRouterModule.forRoot(...) or forRootAsync(...) in the application',
      );
    }
  }
}
