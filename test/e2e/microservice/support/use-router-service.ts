import { afterAll, beforeAll, beforeEach } from '@jest/globals';
import type { ClientProxy } from '@nestjs/microservices';
import type { ChatModel } from '../../../../src/core/chat/chat-model.js';
import {
  RemoteChatModel,
  type RemoteChatModelOptions,
} from '../../../../src/nest/microservice/remote-chat-model.js';
import { startRedisServer, type RedisServer } from '../../../support/redis-server.js';
import {
  clientOf,
  freeLoopbackPort,
  RouterService,
  type TransportAddress,
  type TransportName,
} from './router-service.js';
import { ServiceProbe, serviceOptions } from './service-models.js';

export interface RouterServiceHandle {
  readonly probe: ServiceProbe;
  readonly service: RouterService;
  readonly client: ClientProxy;
  readonly address: TransportAddress;
  /** A RemoteChatModel on the suite's client. */
  remote(options?: RemoteChatModelOptions): RemoteChatModel;
}

/**
 * The hooks of a suite that talks to a router service over `transport` (TCP on a free port, or
 * Redis on its own redis-server): started once, its probe fresh before each test, everything
 * closed at the end.
 */
export function useRouterService(
  transport: TransportName,
  extra: (probe: ServiceProbe) => Record<string, ChatModel> = () => ({}),
): RouterServiceHandle {
  let redis: RedisServer | undefined;
  let service: RouterService | undefined;
  let client: ClientProxy | undefined;
  let address: TransportAddress | undefined;
  const probe = new ServiceProbe();

  beforeAll(async () => {
    if (transport === 'redis') redis = await startRedisServer();
    // a probed port can be taken before the service binds it: try another a few times
    for (let attempt = 1; service === undefined; attempt++) {
      address = { transport, port: redis ? redis.port : await freeLoopbackPort() };
      try {
        service = await RouterService.start(address, () => serviceOptions(probe, extra(probe)));
      } catch (error) {
        if (redis || attempt >= 5 || (error as { code?: string }).code !== 'EADDRINUSE')
          throw error;
      }
    }
    client = clientOf(need(address));
  });
  beforeEach(() => probe.reset());
  afterAll(async () => {
    client?.close();
    await service?.close();
    await redis?.stop();
  });

  return {
    get probe() {
      return probe;
    },
    get service() {
      return need(service);
    },
    get client() {
      return need(client);
    },
    get address() {
      return need(address);
    },
    remote: (options) => new RemoteChatModel(need(client), options),
  };
}

function need<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('the router service starts in beforeAll');
  return value;
}
