/**
 * The upstream of the gateway benchmark: a bare node:http server with an OpenAI-compatible chat
 * completions answer computed once, so that it answers in tens of microseconds and what is
 * measured is the gateway. `stream: true` gets the same answer as five SSE events.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serveBenchIpc } from './server-ipc.js';

const completion = JSON.stringify({
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  created: 1_700_000_000,
  model: 'bench-model',
  choices: [
    {
      index: 0,
      message: { role: 'assistant', content: 'Paris is the capital of France.' },
      finish_reason: 'stop',
    },
  ],
  usage: { prompt_tokens: 9, completion_tokens: 7, total_tokens: 16 },
});
const chunk = (fields: object) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'bench-model', ...fields })}\n\n`;
const sse = [
  chunk({
    choices: [{ index: 0, delta: { role: 'assistant', content: 'Paris is' }, finish_reason: null }],
  }),
  chunk({
    choices: [{ index: 0, delta: { content: ' the capital of France.' }, finish_reason: null }],
  }),
  chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }),
  chunk({ choices: [], usage: { prompt_tokens: 9, completion_tokens: 7, total_tokens: 16 } }),
  'data: [DONE]\n\n',
].join('');

const server = createServer((req, res) => {
  const parts: Buffer[] = [];
  req.on('data', (part: Buffer) => parts.push(part));
  req.on('end', () => {
    const streamed = Buffer.concat(parts).includes('"stream":true');
    if (streamed) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.end(sse);
    } else {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(completion);
    }
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => serveBenchIpc((server.address() as AddressInfo).port));
