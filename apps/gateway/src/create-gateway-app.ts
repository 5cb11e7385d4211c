import { ConsoleLogger, Logger, type LoggerService, type LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { IncomingMessage } from 'node:http';
import type { Registry } from 'prom-client';
import { type Clock, InvalidConfigurationException } from 'nest-model-router';
import type { ApiKeys } from './auth/api-keys.js';
import { GATEWAY_API_KEYS } from './auth/api-key.guard.js';
import { clientKeyOnAdminPath, registerEarlyKeyCheck } from './auth/early-key-check.js';
import type { GatewayConfig } from './config/gateway-config.js';
import { gatewayConfigPath, loadGatewayConfig } from './config/load-gateway-config.js';
import { GatewayModule } from './gateway.module.js';
import { type AccessLogOptions, registerAccessLog, wantsJsonLogs } from './http/access-log.js';
import type { SecretRedactor } from './http/config-secrets.js';
import { maxConnectionsOf, registerConnectionCap } from './http/connection-cap.js';
import { registerBodyCodingRefusal } from './http/body-codings.js';
import { registerContinueGate } from './http/continue-gate.js';
import { answerClientError, answerFrameworkError } from './http/fastify-errors.js';
import { GATEWAY_REDACTOR } from './http/gateway-tokens.js';
import { assertListenAllowed, registerLoopbackHostCheck } from './http/loopback-only.js';
import {
  PROTOCOL_OPTIONS,
  registerPreflightRefusalShape,
  registerProtocolRefusals,
} from './http/protocol-refusals.js';
import { registerJsonShapeCheck } from './http/json-shape-check.js';
import { registerRequestIdHeader, requestIdOf } from './http/request-id.js';
import { registerSessionPins, SessionPins } from './http/session-pins.js';
import { registerUnroutedBodyRefusal } from './http/unrouted-bodies.js';
import { feedbackFlood } from './learning/feedback.controller.js';
import { FeedbackLimits } from './learning/feedback-limits.js';
import { KeyThrottlerStorage } from './limits/key-throttler-storage.js';
import { usedUpLimit } from './limits/key-throttler.guard.js';
import { startTelemetry } from './telemetry/start-telemetry.js';

export interface GatewayAppOptions {
  /**
   * A configuration object, or the path of a YAML file. Default: the file named by
   * `MODEL_ROUTER_CONFIG`, else `config/model-router.yaml`.
   */
  config?: GatewayConfig | string;
  /** The environment for `${ENV}` in a YAML file; default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Drives cooldowns, health and timestamps (tests inject one); default: the system clock. */
  clock?: Clock;
  /** Nest's logger option: `false` silences it. */
  logger?: LoggerService | LogLevel[] | false;
  /**
   * Largest accepted request body in bytes, else `MODEL_ROUTER_BODY_LIMIT` of `env`; default
   * 8 MiB (DEFAULT_BODY_LIMIT). Images travel inline as base64 data URLs: 8 MiB holds a 5 MB
   * image (Anthropic's per-image limit) with room for the conversation, and parses in under
   * ~0.1 s of event loop in the worst shape; 20 MiB took several times that.
   */
  bodyLimit?: number;
  /**
   * How long a client may take to send a whole request (headers and body) before the server
   * answers 408 and closes the connection, so slow uploads cannot hold connections forever.
   * Responses (streams included) are not bounded by it. Default 60 s; 0 disables it.
   */
  requestTimeoutMs?: number;
  /** On close, how long requests in flight may still run before connections are cut; default 10 s. */
  shutdownGraceMs?: number;
  /**
   * How long a streaming client may read nothing, while its answer waits for it, before it is
   * dropped (and charged what its call used so far); default 30 s. Until then the gateway reads
   * no further from the provider for it, so a client that does not read costs bounded memory.
   */
  streamStallMs?: number;
  /**
   * Where `GET /metrics` registers the gateway's metrics. Default: prom-client's global
   * `register`, which holds one application's metrics at a time; give each application that
   * runs beside another in the same process (tests) its own `new Registry()`.
   */
  metricsRegistry?: Registry;
  /**
   * Live `x-model-router-session` ids each API key (or, without `auth`, all clients) may have
   * pinned at a time; a new one beyond it is served unpinned. Default 10 000.
   */
  maxSessionsPerKey?: number;
  /**
   * The access log (one line per request): where and how it is written, or `false`. Default:
   * stdout, unless `logger` is `false`.
   */
  accessLog?: AccessLogOptions | false;
}

/**
 * Builds the gateway application (not yet listening): call `listen(port, host)` on it. A bad
 * configuration fails here, with every problem listed by path. Shutdown hooks are on, so
 * SIGINT/SIGTERM close the module (and its state store) cleanly.
 */
export async function createGatewayApp(
  options: GatewayAppOptions = {},
): Promise<NestFastifyApplication> {
  const logger = options.logger ?? defaultLogger(options.env);
  // what building the configuration logs (Redis reached or not) in the app's format, not Nest's
  // coloured default in the middle of JSON lines
  Logger.overrideLogger(logger);
  const config = await resolveConfig(options);
  // before the app, so that its first request is traced; nothing is loaded without OTEL_* set
  const telemetry = await startTelemetry(options.env ?? process.env);
  const bodyLimit = bodyLimitOf(options);
  const maxConnections = maxConnectionsOf(config.maxConnections);
  // known once the app is built: the configuration's secrets and the gateway's keys
  let isSecret: ((id: string) => boolean) | undefined;
  const adapter = new FastifyAdapter({
    // x-request-id when the client sends a plain one, else a new UUID; returned on every answer
    genReqId: (request: IncomingMessage) => requestIdOf(request, isSecret),
    bodyLimit,
    // Fastify's default (0) lets a client trickle a body in forever
    requestTimeout: requestTimeoutOf(options),
    http: { ...PROTOCOL_OPTIONS.http, ...nodeTimeoutsOf(options) },
    return503OnClosing: PROTOCOL_OPTIONS.return503OnClosing,
    // what Fastify and Node refuse before Nest sees a request, in OpenAI's error shape too
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
  });
  refuseOpenListen(adapter, config.auth !== undefined);
  const app = await NestFactory.create<NestFastifyApplication>(
    GatewayModule.register(config, {
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.metricsRegistry ? { metricsRegistry: options.metricsRegistry } : {}),
      ...(options.shutdownGraceMs !== undefined
        ? { shutdownGraceMs: options.shutdownGraceMs }
        : {}),
      ...(options.streamStallMs !== undefined ? { streamStallMs: options.streamStallMs } : {}),
    }),
    adapter,
    // Fastify's own JSON parser only: Nest's would add form bodies, and text/plain is Fastify's
    // default; either would reach the handler as a string and be answered 400 instead of 415
    {
      logger,
      abortOnError: false,
      bodyParser: false,
    },
  );
  app.getHttpAdapter().getInstance().removeContentTypeParser('text/plain');
  app.enableShutdownHooks();
  const fastify = app.getHttpAdapter().getInstance();
  const hasKeys = config.auth !== undefined && config.auth !== 'none';
  isSecret = secretTest(app, hasKeys ? app.get<string, ApiKeys>(GATEWAY_API_KEYS) : undefined);
  registerJsonShapeCheck(fastify);
  // flushes the spans and metrics of the last requests when the app closes (SIGTERM included)
  if (telemetry) fastify.addHook('onClose', () => telemetry.shutdown());
  registerProtocolRefusals(fastify);
  registerContinueGate(fastify, bodyLimit, [
    clientKeyOnAdminPath,
    usedUpLimit(app.get(KeyThrottlerStorage)),
    feedbackFlood(app.get(FeedbackLimits)),
  ]);
  registerLoopbackHostCheck(fastify);
  registerRequestIdHeader(fastify);
  registerSessionPins(
    fastify,
    new SessionPins({
      ...(options.maxSessionsPerKey !== undefined ? { maxPerKey: options.maxSessionsPerKey } : {}),
      ...(options.clock ? { clock: options.clock } : {}),
    }),
  );
  const accessLog = options.accessLog ?? (options.logger === false ? false : {});
  if (accessLog !== false) registerAccessLog(fastify, accessLog);
  // after the access log's hook, so that the refusals have their line
  registerConnectionCap(fastify, maxConnections, options.clock);
  registerUnroutedBodyRefusal(fastify);
  if (hasKeys) registerEarlyKeyCheck(fastify, app.get<string, ApiKeys>(GATEWAY_API_KEYS));
  registerBodyCodingRefusal(fastify);
  if (config.cors) {
    app.enableCors({
      origin: config.cors.origins.includes('*') ? true : config.cors.origins,
      exposedHeaders: [
        'x-request-id',
        'x-model-router-route',
        'x-model-router-model',
        'x-model-router-downgraded',
        'x-model-router-decision',
        'x-model-router-cost',
        'x-model-router-cache',
        'x-model-router-cache-similarity',
        'retry-after',
        'x-should-retry',
        'x-ratelimit-limit-requests',
        'x-ratelimit-remaining-requests',
        'x-ratelimit-reset-requests',
        'x-ratelimit-limit-tokens',
        'x-ratelimit-remaining-tokens',
        'x-ratelimit-reset-tokens',
      ],
    });
    registerPreflightRefusalShape(fastify);
  }
  return app;
}

/**
 * `listen` beyond loopback needs `auth` (or `auth: none`): checked where Nest hands the address
 * to Fastify, so `app.listen(port, host)` rejects with the reason. A Unix socket path is local.
 */
function refuseOpenListen(adapter: FastifyAdapter, hasAuth: boolean): void {
  const listen = adapter.listen.bind(adapter) as (...args: unknown[]) => unknown;
  (adapter as unknown as { listen: (...args: unknown[]) => unknown }).listen = (...args) => {
    const [first, second] = args;
    const isPath = typeof first === 'string' && Number.isNaN(Number(first));
    if (!isPath) {
      const host =
        typeof first === 'object' && first !== null
          ? (first as { host?: string }).host
          : typeof second === 'string'
            ? second
            : undefined;
      assertListenAllowed(host, hasAuth);
    }
    return listen(...args);
  };
}

/** Whether a text is one of the configuration's secrets, shaped like a credential, or a key. */
function secretTest(
  app: NestFastifyApplication,
  keys: ApiKeys | undefined,
): (text: string) => boolean {
  const redactor = app.get<string, SecretRedactor>(GATEWAY_REDACTOR);
  return (text) => redactor.redact(text) !== text || keys?.authenticate(text) !== undefined;
}

/** Plain text for a person at a terminal; JSON lines without colours for files and collectors. */
function defaultLogger(
  env: Readonly<Record<string, string | undefined>> = process.env,
): LoggerService | LogLevel[] {
  const levels: LogLevel[] = ['log', 'warn', 'error'];
  return wantsJsonLogs(env)
    ? new ConsoleLogger({ json: true, colors: false, logLevels: levels })
    : levels;
}

/** 8 MiB: see GatewayAppOptions.bodyLimit. */
export const DEFAULT_BODY_LIMIT = 8 * 1024 * 1024;

function bodyLimitOf({ bodyLimit, env = process.env }: GatewayAppOptions): number {
  const fromEnv = env.MODEL_ROUTER_BODY_LIMIT;
  const limit = bodyLimit ?? (fromEnv ? Number(fromEnv) : DEFAULT_BODY_LIMIT);
  if (!Number.isSafeInteger(limit) || limit < 1) {
    throw new InvalidConfigurationException(
      `bodyLimit (MODEL_ROUTER_BODY_LIMIT) must be a whole number of bytes >= 1; got ${String(bodyLimit ?? fromEnv)}.`,
    );
  }
  return limit;
}

function requestTimeoutOf({ requestTimeoutMs = 60_000 }: GatewayAppOptions): number {
  if (!Number.isSafeInteger(requestTimeoutMs) || requestTimeoutMs < 0) {
    throw new InvalidConfigurationException(
      `requestTimeoutMs must be a whole number of milliseconds >= 0 (0 disables it); got ${String(requestTimeoutMs)}.`,
    );
  }
  return requestTimeoutMs;
}

/**
 * Node enforces `requestTimeout` only while `headersTimeout` (default 60 s) is not longer, and
 * checks every 30 s by default: a 60 s bound cut slow uploads at up to 90 s, a shorter one never.
 */
function nodeTimeoutsOf(options: GatewayAppOptions): {
  connectionsCheckingInterval: number;
  headersTimeout?: number;
} {
  const timeout = requestTimeoutOf(options);
  if (timeout === 0) return { connectionsCheckingInterval: 30_000 };
  return {
    connectionsCheckingInterval: Math.min(1000, timeout),
    headersTimeout: Math.min(60_000, timeout),
  };
}

function resolveConfig(options: GatewayAppOptions): Promise<GatewayConfig> | GatewayConfig {
  if (typeof options.config === 'object') return options.config;
  const path = options.config ?? gatewayConfigPath(options.env);
  return loadGatewayConfig(path, {
    ...(options.env ? { env: options.env } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
  });
}
