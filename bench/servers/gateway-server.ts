/**
 * A gateway of the benchmark, in a process of its own so that its CPU time and memory are its
 * own: `createGatewayApp` from the given build (this tree's, or a baseline's), on the given
 * YAML configuration.
 *
 *   node gateway-server.js <path of create-gateway-app.js> <config.yaml>
 */
import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { serveBenchIpc } from './server-ipc.js';

type Create = (options: { config: string; logger: false }) => Promise<NestFastifyApplication>;
const [modulePath, config] = process.argv.slice(2) as [string, string];
const { createGatewayApp } = (await import(pathToFileURL(modulePath).href)) as {
  createGatewayApp: Create;
};
const app = await createGatewayApp({ config, logger: false });
await app.listen(0, '127.0.0.1');
serveBenchIpc((app.getHttpServer().address() as AddressInfo).port);
