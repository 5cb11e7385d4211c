import { type LoggerService, type LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Clock } from '../core/clock.js';
import { demoGatewayConfig } from './config/demo-config.js';
import type { GatewayConfig } from './config/gateway-config.js';
import { GatewayModule } from './gateway.module.js';

export interface GatewayAppOptions {
  /** The configuration; default: the offline demo. */
  config?: GatewayConfig;
  /** Drives cooldowns, health and timestamps (tests inject one); default: the system clock. */
  clock?: Clock;
  /** Nest's logger option: `false` silences it. */
  logger?: LoggerService | LogLevel[] | false;
  /** Largest accepted request body in bytes (images travel inline); default 20 MiB. */
  bodyLimit?: number;
  /** On close, how long requests in flight may still run before connections are cut; default 10 s. */
  shutdownGraceMs?: number;
}

/**
 * Builds the gateway application (not yet listening): call `listen(port, host)` on it. Shutdown
 * hooks are on, so SIGINT/SIGTERM close the module (and its state store) cleanly.
 */
export async function createGatewayApp(
  options: GatewayAppOptions = {},
): Promise<NestFastifyApplication> {
  const config = options.config ?? demoGatewayConfig();
  const adapter = new FastifyAdapter({ bodyLimit: options.bodyLimit ?? 20 * 1024 * 1024 });
  const app = await NestFactory.create<NestFastifyApplication>(
    GatewayModule.register(config, {
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.shutdownGraceMs !== undefined
        ? { shutdownGraceMs: options.shutdownGraceMs }
        : {}),
    }),
    adapter,
    { logger: options.logger ?? ['log', 'warn', 'error'], abortOnError: false },
  );
  app.enableShutdownHooks();
  return app;
}
