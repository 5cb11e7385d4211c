import Fastify, { type FastifyInstance } from 'fastify';
import { Pool } from 'undici';

/**
 * The floor of the gateway benchmarks: the least a Node gateway can do, Fastify parsing the body
 * and an undici Pool forwarding it to the upstream, the answer piped back as it comes. Not yet
 * listening: a child server listens on a port, an in-process bench injects.
 */
export function floorForwarderApp(
  origin: string,
  connections: number,
): { app: FastifyInstance; close(): Promise<void> } {
  const upstream = new Pool(origin, { connections, keepAliveTimeout: 60_000 });
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
  return {
    app,
    close: async () => {
      await app.close();
      await upstream.close();
    },
  };
}
