import 'reflect-metadata';
import type { INestMicroservice } from '@nestjs/common';
import {
  type ClientProxy,
  ClientProxyFactory,
  type MicroserviceOptions,
  Transport,
} from '@nestjs/microservices';
import { Test } from '@nestjs/testing';
import { createServer } from 'node:net';
import { ModelRouterMicroserviceModule } from '../../../../src/nest/microservice/model-router-microservice.module.js';
import { ModelRouterModule } from '../../../../src/nest/module/model-router.module.js';
import type { ModelRouterModuleOptions } from '../../../../src/nest/module/model-router-module-options.js';

export type TransportName = 'tcp' | 'redis';

/** Where the service listens: its own TCP port, or the Redis server both sides use. */
export interface TransportAddress {
  transport: TransportName;
  port: number;
}

/**
 * A model router service, as a team would run it: ModelRouterModule and
 * ModelRouterMicroserviceModule in an app created as a Nest microservice on a real transport.
 * `restart()` closes it and starts a new app on the same address (same options).
 */
export class RouterService {
  private app: INestMicroservice | undefined;

  private constructor(
    readonly address: TransportAddress,
    private readonly options: () => ModelRouterModuleOptions,
  ) {}

  static async start(
    address: TransportAddress,
    options: () => ModelRouterModuleOptions,
  ): Promise<RouterService> {
    const service = new RouterService(address, options);
    await service.open();
    return service;
  }

  get running(): boolean {
    return this.app !== undefined;
  }

  get nest(): INestMicroservice {
    if (!this.app) throw new Error('the router service is stopped');
    return this.app;
  }

  async open(): Promise<void> {
    const moduleRef = await Test.createTestingModule({
      imports: [ModelRouterModule.forRoot(this.options()), ModelRouterMicroserviceModule],
    }).compile();
    const app = moduleRef.createNestMicroservice<MicroserviceOptions>({
      ...transportOptions(this.address),
      logger: false,
    });
    try {
      await app.listen();
    } catch (error) {
      await app.close().catch(() => undefined);
      throw error;
    }
    this.app = app;
  }

  async close(): Promise<void> {
    const app = this.app;
    this.app = undefined;
    await app?.close();
  }

  async restart(): Promise<void> {
    await this.close();
    await this.open();
  }
}

export function transportOptions(address: TransportAddress): MicroserviceOptions {
  return address.transport === 'tcp'
    ? { transport: Transport.TCP, options: { host: '127.0.0.1', port: address.port } }
    : { transport: Transport.REDIS, options: { host: '127.0.0.1', port: address.port } };
}

/** A ClientProxy of the service's transport (connects on its first call). */
export function clientOf(address: TransportAddress): ClientProxy {
  return ClientProxyFactory.create(
    transportOptions(address) as Parameters<typeof ClientProxyFactory.create>[0],
  );
}

export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
