import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { createGatewayApp } from '../../../src/app/create-gateway-app.js';
import type { ModelRouterModuleOptions } from '../../../src/nest/module/model-router-module-options.js';
import { FaultStack, type FaultStackOptions } from './fault-fixture.js';

/**
 * The fault stack behind the demo gateway over HTTP: the official openai client → the gateway
 * (Fastify, on 127.0.0.1) → router `main` → the models on the fake provider.
 */
export class GatewayFaultStack extends FaultStack {
  url!: string;
  /** The official client, without its own retries: what the caller sees is the gateway's. */
  client!: OpenAI;

  static override async start(options: FaultStackOptions): Promise<GatewayFaultStack> {
    const stack = new GatewayFaultStack(options);
    await stack.startApp(stack.moduleOptions());
    return stack;
  }

  protected override async startApp(module: ModelRouterModuleOptions): Promise<void> {
    const app = await createGatewayApp({ config: { module }, clock: this.clock, logger: false });
    await app.listen(0, '127.0.0.1');
    this.app = app;
    const { port } = app.getHttpServer().address() as AddressInfo;
    this.url = `http://127.0.0.1:${port}/v1`;
    this.client = new OpenAI({ baseURL: this.url, apiKey: 'sk-gateway-client', maxRetries: 0 });
  }

  override async close(): Promise<void> {
    // after an aborted request the client's pool may open a spare connection that never carries
    // a request; the server would wait for the client's keep-alive timeout to let it go
    (this.app.getHttpServer() as Server).closeAllConnections();
    await super.close();
  }
}
