import { afterEach, describe, expect, it } from '@jest/globals';
import { createServer, get, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventStream } from '../../../apps/gateway/src/http/event-stream.js';

let server: Server | undefined;

afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** Serves one request with `handle`, and returns the body the client read. */
async function serve(handle: (raw: ServerResponse) => void): Promise<string> {
  server = createServer((_request, raw) => handle(raw));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    get(`http://127.0.0.1:${port}/`, (answer) => {
      let body = '';
      answer.setEncoding('utf8');
      answer.on('data', (part: string) => (body += part));
      answer.on('end', () => resolve(body));
    }).on('error', reject);
  });
}

describe('EventStream', () => {
  it('hands the head and the first event to the socket at once, later ones of a tick together', async () => {
    const corked: number[] = [];
    const body = await serve((raw) => {
      const sse = new EventStream(raw);
      // as a provider chunk's events arrive: one after the other in the same promise chain
      void Promise.resolve().then(() => {
        sse.start({ 'x-model-router-model': 'm' });
        sse.send([{ data: { n: 1 } }]);
        // Node's write corks the socket until the next tick: the first event must not wait
        corked.push(raw.socket!.writableCorked, raw.socket!.writableLength);
        sse.send([{ data: { n: 2 } }]);
        sse.send([{ event: 'done', data: '[DONE]', raw: true }]);
        corked.push(raw.socket!.writableCorked);
        process.nextTick(() => {
          corked.push(raw.socket!.writableCorked);
          sse.end();
        });
      });
    });

    expect(corked).toEqual([0, 0, 1, 0]);
    expect(body).toBe('data: {"n":1}\n\ndata: {"n":2}\n\nevent: done\ndata: [DONE]\n\n');
  });
});
