import { Controller, Get, Res, ServiceUnavailableException } from '@nestjs/common';
import { HealthCheckService } from '@nestjs/terminus';
import type { FastifyReply } from 'fastify';
import { ModelRouterHealthIndicator } from 'nest-model-router';

/**
 * Terminus health of the routers: 200 when up or degraded (some models cooling down), 503 when
 * a router has nothing left. The body is Terminus's, not an OpenAI error.
 */
@Controller()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicator: ModelRouterHealthIndicator,
  ) {}

  @Get('health')
  async check(@Res() reply: FastifyReply): Promise<void> {
    try {
      const result = await this.health.check([() => this.indicator.isHealthy()]);
      await reply.status(200).send(result);
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      await reply.status(503).send(error.getResponse());
    }
  }
}
