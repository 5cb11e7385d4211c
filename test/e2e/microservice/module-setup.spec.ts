import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { type MicroserviceOptions, Transport } from '@nestjs/microservices';
import { Test } from '@nestjs/testing';
import type { Observable } from 'rxjs';
import { InvalidConfigurationException } from '../../../src/core/errors/exceptions.js';
import { ModelRouterMicroserviceController } from '../../../src/nest/microservice/model-router-microservice.controller.js';
import { ModelRouterMicroserviceModule } from '../../../src/nest/microservice/model-router-microservice.module.js';
import { RemoteChatModel } from '../../../src/nest/microservice/remote-chat-model.js';
import { ModelRouterModule } from '../../../src/nest/module/model-router.module.js';
import { ModelRouterHealthIndicator } from '../../../src/nest/health/model-router-health.indicator.js';
import { ModelRouterHealthModule } from '../../../src/nest/health/model-router-health.module.js';
import { until } from '../../integration/faults/server-sockets.js';
import { clientOf, freeLoopbackPort } from './support/router-service.js';
import { ServiceProbe, serviceOptions } from './support/service-models.js';

const ask = { messages: [{ role: 'user' as const, content: 'hi' }] };

describe('ModelRouterMicroserviceModule in an application', () => {
  it('serves a hybrid app (HTTP app + connectMicroservice) as well', async () => {
    const probe = new ServiceProbe();
    @Module({
      imports: [ModelRouterModule.forRoot(serviceOptions(probe)), ModelRouterMicroserviceModule],
    })
    // oxlint-disable-next-line typescript/no-extraneous-class -- a Nest module
    class HybridModule {}
    const port = await freeLoopbackPort();
    const app = await NestFactory.create(HybridModule, { logger: false });
    app.connectMicroservice<MicroserviceOptions>({
      transport: Transport.TCP,
      options: { host: '127.0.0.1', port },
    });
    await app.startAllMicroservices();
    await app.init();
    const client = clientOf({ transport: 'tcp', port });
    try {
      const response = await new RemoteChatModel(client).chat(ask);
      expect(response.aiMessage.text).toBe('echo: hi');
    } finally {
      client.close();
      await app.close();
    }
  });

  it("HEALTH is the indicator's report, cooling models included", async () => {
    const probe = new ServiceProbe();
    const port = await freeLoopbackPort();
    const moduleRef = await Test.createTestingModule({
      imports: [
        ModelRouterModule.forRoot(serviceOptions(probe)),
        ModelRouterMicroserviceModule,
        ModelRouterHealthModule,
      ],
    }).compile();
    const app = moduleRef.createNestMicroservice<MicroserviceOptions>({
      transport: Transport.TCP,
      options: { host: '127.0.0.1', port },
      logger: false,
    });
    await app.listen();
    const client = clientOf({ transport: 'tcp', port });
    try {
      const remote = new RemoteChatModel(client);
      // both models of `exhausted` fail, and cool down
      await expect(
        new RemoteChatModel(client, { router: 'exhausted' }).chat(ask),
      ).rejects.toThrow();

      const report = await remote.health();

      expect(report).toEqual(
        JSON.parse(JSON.stringify(app.get(ModelRouterHealthIndicator).report())),
      );
      expect(report.status).toBe('down');
      expect(report.routers.exhausted?.models.primary).toMatchObject({
        state: 'cooldown',
        failures: 1,
      });
    } finally {
      client.close();
      await app.close();
    }
  });

  it('refuses to start without ModelRouterModule, saying so', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [ModelRouterMicroserviceModule],
    }).compile();
    const app = moduleRef.createNestApplication({ logger: false });

    const started = app.init();

    await expect(started).rejects.toThrow(InvalidConfigurationException);
    await expect(started).rejects.toThrow(
      'ModelRouterMicroserviceModule needs ModelRouterModule: import ModelRouterModule.forRoot(...) or forRootAsync(...) beside it',
    );
    await app.close().catch(() => undefined);
  });

  it.each(['chat', 'stream'] as const)(
    'a %s reply stream that the transport unsubscribes aborts the call on the service',
    async (mode) => {
      const probe = new ServiceProbe();
      const moduleRef = await Test.createTestingModule({
        imports: [ModelRouterModule.forRoot(serviceOptions(probe)), ModelRouterMicroserviceModule],
      }).compile();
      const app = moduleRef.createNestApplication({ logger: false });
      await app.init();
      try {
        const controller = app.get(ModelRouterMicroserviceController);
        const replies = controller[mode]({ callId: 'c-1', request: ask, router: 'hanging' });
        const subscription = (replies as Observable<unknown>).subscribe({
          error: () => undefined,
        });
        await until(() => probe.hangingCalls === 1);

        subscription.unsubscribe();

        await until(() => probe.aborts.length === 1);
        expect(probe.aborts[0]).toMatchObject({ name: 'AbortError' });
        // and the call is forgotten: its id may be used again
        expect(controller.cancel({ callId: 'c-1' })).toEqual({ cancelled: false });
      } finally {
        await app.close();
      }
    },
  );
});
