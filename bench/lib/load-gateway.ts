import type { AddressInfo } from 'node:net';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createGatewayApp } from '../../apps/gateway/src/create-gateway-app.js';
// the library as the gateway imports it (the built package): one copy of its classes, so the
// gateway's error table recognises the errors of these models (a second copy answered 500)
import {
  type ChatModel,
  FailoverStrategy,
  LowestTokenUsageRoutingStrategy,
  ModelRouter,
  OpenAiCompatibleChatModel,
  withResilience,
} from 'nest-model-router';
import { randomFaults, type FaultMix } from './random-faults.js';

export interface LoadModel {
  name: string;
  baseURL: string;
  /** Faults injected at random under the resilience layer; none when absent. */
  faults?: FaultMix;
}

export interface LoadGateway {
  app: NestFastifyApplication;
  baseURL: string;
}

/**
 * The demo gateway (Fastify) serving router `main`: the given models, each OpenAI-compatible on
 * the official SDK and wrapped with resilience, in a ModelRouter with a circuit-breaking
 * FailoverStrategy that balances the admissible models by token usage, and stream continuation.
 * Bounds are tight for a local provider, yet loose enough for a busy two-core machine.
 */
export async function startLoadGateway(
  models: LoadModel[],
  random: () => number,
): Promise<LoadGateway> {
  const routes = models.map(({ name, baseURL, faults }) => {
    const provider: ChatModel = new OpenAiCompatibleChatModel({
      baseURL,
      apiKey: 'sk-load-bench',
      model: name,
      assistantPrefill: true,
    });
    const model = withResilience(faults ? randomFaults(provider, name, faults, random) : provider, {
      name,
      retry: { maxAttempts: 3, baseDelayMs: 20, maxDelayMs: 200, maxRetryAfterMs: 500 },
      timeouts: { attemptMs: 2_000, firstTokenMs: 2_000, idleMs: 1_000 },
    });
    return { name, model };
  });
  const router = new ModelRouter({
    routes,
    routingStrategy: new FailoverStrategy({
      // opens on a failure rate, not on one failure: random faults (about one failed call in ten)
      // leave a model in service, a provider that is down fails every call and is taken out. The
      // window is a fixed one: at the tail of a burst only the slow calls (timeouts) are still
      // finishing, and 20 of them alone would open a healthy model; 50 calls do not happen so
      window: { durationMs: 10_000, minimumRequests: 50 },
      failureRateThreshold: 0.5,
      cooldownMs: 2_000,
      halfOpenProbes: 1,
      cooldownMultiplier: 2,
      maxCooldownMs: 16_000,
      delegate: new LowestTokenUsageRoutingStrategy(),
    }),
    continuation: true,
  });
  const app = await createGatewayApp({
    config: { module: { routers: { main: router }, defaultRouter: 'main' } },
    logger: false,
  });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { app, baseURL: `http://127.0.0.1:${port}/v1` };
}
