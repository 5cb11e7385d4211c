import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Server } from 'node:http';
import { Registry } from 'prom-client';
import { demoGatewayConfig } from '../../../src/app/config/demo-config.js';
import { createGatewayApp } from '../../../src/app/create-gateway-app.js';
import { InvalidConfigurationException } from '../../../src/core/errors/exceptions.js';
import { startGateway, type RunningGateway } from './gateway-harness.js';

const offline = () => demoGatewayConfig({ tokenDelayMs: 0, failEvery: 0 });

describe('slow uploads', () => {
  let gateway: RunningGateway;

  beforeAll(async () => {
    gateway = await startGateway({ config: offline() });
  });

  afterAll(() => gateway.close());

  it('are cut after 60 s by default, where Fastify leaves requests unbounded', () => {
    expect((gateway.app.getHttpServer() as Server).requestTimeout).toBe(60_000);
  });

  it('are bounded by requestTimeoutMs when given', async () => {
    const app = await createGatewayApp({
      config: offline(),
      logger: false,
      metricsRegistry: new Registry(),
      requestTimeoutMs: 5_000,
    });
    try {
      expect((app.getHttpServer() as Server).requestTimeout).toBe(5_000);
    } finally {
      await app.close();
    }
  });

  it('refuses a requestTimeoutMs that is not a whole number of ms', async () => {
    const created = createGatewayApp({ config: offline(), logger: false, requestTimeoutMs: -1 });

    await expect(created).rejects.toThrow(InvalidConfigurationException);
    await expect(created).rejects.toThrow(/requestTimeoutMs .* got -1/);
  });
});
