import { Inject, Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import type { Clock } from '../../core/clock.js';
import { ModelRouterRegistry } from '../../nest/module/model-router-registry.js';
import { GATEWAY_CLOCK } from '../http/gateway-tokens.js';

/**
 * Stand-in for the module's ModelRouterHealthIndicator until it lands: `up` when nothing cools
 * down, `degraded` when some models do but every router still has one, `down` otherwise.
 */
@Injectable()
export class InterimHealthIndicator {
  constructor(
    private readonly registry: ModelRouterRegistry,
    private readonly health: HealthIndicatorService,
    @Inject(GATEWAY_CLOCK) private readonly clock: Clock,
  ) {}

  isHealthy(key = 'model-router') {
    const session = this.health.check(key);
    const routers: Record<string, unknown> = {};
    let cooling = false;
    let down = false;
    for (const { router, models } of this.registry.inspect()) {
      const details: Record<string, unknown> = {};
      for (const status of models) {
        details[status.model] = {
          state: status.state,
          ...(status.route ? { route: status.route } : {}),
          ...(status.cooldownUntil !== undefined
            ? { cooldownUntil: new Date(status.cooldownUntil).toISOString() }
            : {}),
          failures: status.failures,
          ...(status.lastError ? { lastError: status.lastError } : {}),
        };
      }
      const blocked = models.filter((m) => m.state === 'cooldown').length;
      cooling ||= blocked > 0;
      down ||= models.length > 0 && blocked === models.length;
      routers[router] = { models: details };
    }
    const data = { routers, checkedAt: new Date(this.clock()).toISOString() };
    if (down) return session.down(data);
    return cooling ? session.degraded(data) : session.up(data);
  }
}
