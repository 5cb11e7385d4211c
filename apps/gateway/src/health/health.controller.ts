import {
  Controller,
  Get,
  Inject,
  Optional,
  Req,
  Res,
  ServiceUnavailableException,
} from '@nestjs/common';
import { HealthCheckService } from '@nestjs/terminus';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ModelRouterHealthIndicator } from 'nest-model-router';
import type { ApiKeys } from '../auth/api-keys.js';
import { GATEWAY_API_KEYS } from '../auth/api-key.guard.js';
import { keyOf } from '../auth/request-key.js';

/**
 * Terminus health of the routers: 200 when up or degraded (some models cooling down), 503 when
 * a router has nothing left. The body is Terminus's, not an OpenAI error. Once `auth` is
 * configured, only an admin key sees the details (models, errors, the state store); anyone
 * else, a load balancer included, gets the status alone, with the same HTTP status.
 */
@Controller()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicator: ModelRouterHealthIndicator,
    @Optional() @Inject(GATEWAY_API_KEYS) private readonly keys?: ApiKeys,
  ) {}

  @Get('health')
  async check(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const detailed = !this.keys || keyOf(request)?.admin === true;
    try {
      const result = await this.health.check([() => this.indicator.isHealthy()]);
      await reply.status(200).send(detailed ? result : { status: result.status });
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      const body = error.getResponse() as { status?: unknown };
      await reply.status(503).send(detailed ? body : { status: body.status });
    }
  }
}
