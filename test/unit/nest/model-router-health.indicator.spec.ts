import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { Test } from '@nestjs/testing';
import { InvalidConfigurationException } from '../../../src/core/errors/exceptions.js';
import { ModelRouterHealthIndicator } from '../../../src/nest/health/model-router-health.indicator.js';
import { ModelRouterHealthModule } from '../../../src/nest/health/model-router-health.module.js';
import { ModelRouterModule } from '../../../src/nest/module/model-router.module.js';
import { FakeRouter } from './support/fake-routing.js';

describe('ModelRouterHealthIndicator', () => {
  it('fails the start when ModelRouterModule is not registered', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [ModelRouterHealthModule],
    }).compile();
    await expect(moduleRef.init()).rejects.toThrow(InvalidConfigurationException);
    await expect(moduleRef.init()).rejects.toThrow('needs ModelRouterModule');
  });

  it('finds a non-global ModelRouterModule imported beside it and reports under the given key', async () => {
    const router = new FakeRouter();
    router.statuses = [
      { model: 'a', state: 'cooldown', cooldownUntil: Date.UTC(2030, 0, 1), failures: 1 },
      { model: 'b', state: 'available', failures: 0 },
    ];
    const moduleRef = await Test.createTestingModule({
      imports: [ModelRouterModule.forRoot({ routers: { main: router } }), ModelRouterHealthModule],
    }).compile();
    await moduleRef.init();
    const indicator = moduleRef.get(ModelRouterHealthIndicator);
    const result = await indicator.isHealthy('llm');
    expect(result.llm).toMatchObject({
      status: 'degraded',
      routers: {
        main: {
          status: 'degraded',
          models: { a: { state: 'cooldown', cooldownUntil: '2030-01-01T00:00:00.000Z' } },
        },
      },
    });
    expect(indicator.report().status).toBe('degraded');
    await moduleRef.close();
  });
});
