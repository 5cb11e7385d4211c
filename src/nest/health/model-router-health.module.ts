import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { ModelRouterHealthIndicator } from './model-router-health.indicator.js';

/**
 * Provides ModelRouterHealthIndicator (and Terminus's HealthCheckService). Import it beside
 * ModelRouterModule.forRoot/forRootAsync; the indicator finds the routers at start-up.
 */
@Module({
  imports: [TerminusModule],
  providers: [ModelRouterHealthIndicator],
  exports: [ModelRouterHealthIndicator, TerminusModule],
})
// oxlint-disable-next-line typescript/no-extraneous-class -- a Nest module
export class ModelRouterHealthModule {}
