import { Controller, Get, Inject, Res, type Type } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { ModelRouterMetrics } from './model-router-metrics.js';

/**
 * A controller serving `GET /<path>` with the registry's text format and its Content-Type,
 * under Express and Fastify alike (the header goes through the HTTP adapter). The module adds
 * one when given `path`; list one in your own module's `controllers` to place it yourself.
 */
export function createModelRouterMetricsController(path = 'metrics'): Type<unknown> {
  @Controller()
  class ModelRouterMetricsController {
    constructor(
      @Inject(ModelRouterMetrics) private readonly metrics: ModelRouterMetrics,
      @Inject(HttpAdapterHost) private readonly adapterHost: HttpAdapterHost,
    ) {}

    @Get(path)
    async scrape(@Res({ passthrough: true }) response: unknown): Promise<string> {
      const text = await this.metrics.scrape();
      this.adapterHost.httpAdapter.setHeader(response, 'Content-Type', this.metrics.contentType);
      return text;
    }
  }
  return ModelRouterMetricsController;
}
