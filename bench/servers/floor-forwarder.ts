/**
 * The floor of the gateway benchmark (bench/lib/floor-forwarder-app.ts) as a child server.
 *
 *   node floor-forwarder.js <upstream origin>
 */
import type { AddressInfo } from 'node:net';
import { floorForwarderApp } from '../lib/floor-forwarder-app.js';
import { serveBenchIpc } from './server-ipc.js';

const { app } = floorForwarderApp(process.argv[2]!, 128);
await app.listen({ port: 0, host: '127.0.0.1' });
serveBenchIpc((app.server.address() as AddressInfo).port);
