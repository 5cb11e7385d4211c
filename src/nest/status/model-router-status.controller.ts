import { Controller, Get, Header, Inject, Req, Res, type Type } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { ModelRouterStatus } from './model-router-status.js';
import { STATUS_PAGE_CSP, statusPageHtml } from './status-page.js';
import type { RouterStatusReport } from './status-report.js';
import { checkStatusRequest } from './status-request.js';

const PAGE_HEADERS: [string, string][] = [
  ['Content-Type', 'text/html; charset=utf-8'],
  ['Content-Security-Policy', STATUS_PAGE_CSP],
  ['Cache-Control', 'no-store'],
  ['X-Content-Type-Options', 'nosniff'],
  ['Referrer-Policy', 'no-referrer'],
];

export interface StatusControllerSettings {
  /** `GET /<path>`: the JSON; false to serve none. Default `router/status`. */
  path: string | false;
  /** `GET /<pagePath>`: the page; false to serve none. Default `status`. */
  pagePath: string | false;
  loopbackOnly: boolean;
  pollMs: number;
}

/**
 * The controllers of `GET /router/status` and `GET /status`, under Express and Fastify alike.
 * They add no authentication of their own: the app's guards run before them (the gateway's ask
 * for an admin key), and without one `loopbackOnly` keeps them to local callers.
 */
export function createModelRouterStatusControllers(settings: StatusControllerSettings): Type[] {
  const controllers: Type[] = [];
  const { path, pagePath, loopbackOnly, pollMs } = settings;
  if (path !== false) {
    const jsonPath: string = path;
    @Controller()
    class RouterStatusController {
      constructor(@Inject(ModelRouterStatus) private readonly status: ModelRouterStatus) {}

      @Get(jsonPath)
      @Header('Cache-Control', 'no-store')
      report(@Req() request: unknown): RouterStatusReport {
        checkStatusRequest(request, loopbackOnly);
        return this.status.report();
      }
    }
    controllers.push(RouterStatusController);
  }
  if (pagePath !== false) {
    const htmlPath: string = pagePath;
    // the page asks for the JSON by an absolute path, wherever it is mounted
    const html = statusPageHtml(path === false ? '' : `/${path}`, pollMs);
    @Controller()
    class StatusPageController {
      constructor(@Inject(HttpAdapterHost) private readonly adapterHost: HttpAdapterHost) {}

      @Get(htmlPath)
      page(@Req() request: unknown, @Res({ passthrough: true }) response: unknown): string {
        checkStatusRequest(request, loopbackOnly);
        // set once the checks passed: a refusal keeps the error's own type (JSON)
        const adapter = this.adapterHost.httpAdapter;
        for (const [name, value] of PAGE_HEADERS) adapter.setHeader(response, name, value);
        return html;
      }
    }
    controllers.push(StatusPageController);
  }
  return controllers;
}
