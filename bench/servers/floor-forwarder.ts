/**
 * The floor of the gateway benchmark: the least a Node gateway can do, Fastify parsing the body
 * and an undici Pool forwarding it to the upstream, the answer piped back as it comes.
 *
 *   node floor-forwarder.js <upstream origin>
 */
import Fastify from 'fastify';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { serveBenchIpc } from './server-ipc.js';

const upstream = new Pool(process.argv[2]!, { connections: 128, keepAliveTimeout: 60_000 });
const app = Fastify({ logger: false });
app.post('/v1/chat/completions', async (request, reply) => {
  const answer = await upstream.request({
    path: '/v1/chat/completions',
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench-floor' },
    body: JSON.stringify(request.body),
  });
  const type = answer.headers['content-type'];
  return reply
    .code(answer.statusCode)
    .header('content-type', typeof type === 'string' ? type : 'application/json')
    .send(answer.body);
});
await app.listen({ port: 0, host: '127.0.0.1' });
serveBenchIpc((app.server.address() as AddressInfo).port);
