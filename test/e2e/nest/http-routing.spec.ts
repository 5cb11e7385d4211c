import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { type RoutingApp, startRoutingApp } from './support/routing-app.js';

const ask = (text: string) => ({ messages: [{ role: 'user', content: text }] });

describe.each(['express', 'fastify'] as const)('controllers under %s', (adapter) => {
  let subject: RoutingApp;

  beforeAll(async () => {
    subject = await startRoutingApp(adapter);
  });

  afterAll(async () => {
    await subject.close();
  });

  it("routes with the class's @UseRouter and reports route and model in headers", async () => {
    const response = await request(subject.url).post('/chat').send(ask('hello')).expect(201);
    expect(response.body).toEqual({ text: 'primary: hello', model: 'primary-v1' });
    expect(response.headers['x-model-router-route']).toBe('simple');
    expect(response.headers['x-model-router-model']).toBe('primary');
    expect(subject.models.primary.lastAttributes).toMatchObject({
      model_router: 'support',
      chat_model_route: 'simple',
    });
  });

  it('reports the route the decision chose', async () => {
    const response = await request(subject.url)
      .post('/chat')
      .send(ask('design a queue'))
      .expect(201);
    expect(response.body.text).toBe('deep: design a queue');
    expect(response.headers['x-model-router-route']).toBe('complex');
    expect(response.headers['x-model-router-model']).toBe('deep');
  });

  it("lets the handler's @UseRouter win over the class's", async () => {
    const response = await request(subject.url).post('/sales').send(ask('price?')).expect(201);
    expect(response.body.text).toBe('seller: price?');
    expect(response.headers['x-model-router-model']).toBe('seller');
    // a bare model group has no route
    expect(response.headers['x-model-router-route']).toBeUndefined();
  });

  it('lets the body name another router', async () => {
    const response = await request(subject.url)
      .post('/chat')
      .send({ ...ask('hi'), router: 'sales' })
      .expect(201);
    expect(response.body.text).toBe('seller: hi');
  });

  it('answers 404 naming the known routers when the body names an unknown one', async () => {
    const response = await request(subject.url)
      .post('/chat')
      .send({ ...ask('hi'), router: 'nope' })
      .expect(404);
    expect(response.body).toEqual({
      statusCode: 404,
      error: 'UnknownRouterException',
      code: 'model_not_found',
      message: "Unknown router 'nope'; known routers: 'support', 'sales', 'ticker'",
    });
  });

  it('keeps concurrent requests apart', async () => {
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        request(subject.url)
          .post(i % 2 === 0 ? '/chat' : '/sales')
          .send(ask(i % 4 === 0 ? `design ${i}` : `q${i}`)),
      ),
    );
    responses.forEach((response, i) => {
      const expected = i % 2 === 1 ? 'seller' : i % 4 === 0 ? 'deep' : 'primary';
      expect(response.headers['x-model-router-model']).toBe(expected);
    });
  });

  describe('invalid bodies get 400 naming the field, never 500', () => {
    it.each([
      ['no messages', {}, 'messages is required'],
      ['empty messages', { messages: [] }, 'messages must contain at least 1 elements'],
      ['messages not an array', { messages: 'hi' }, 'messages must be an array'],
      ['a null message', { messages: [null] }, 'each value in messages must be an object'],
      [
        'an unknown role',
        { messages: [{ role: 'robot', content: 'x' }] },
        'messages.0.role must be one of the following values: system, user, assistant, tool',
      ],
      [
        'user content of the wrong type',
        { messages: [{ role: 'user', content: 42 }] },
        'messages.0.content must be a string or an array of content parts',
      ],
      [
        'a content part without text',
        { messages: [{ role: 'user', content: [{ type: 'text' }] }] },
        'messages.0.content[0].text must be a string',
      ],
      [
        'a system message without text',
        { messages: [{ role: 'system' }, { role: 'user', content: 'x' }] },
        'messages.0.text must be a string',
      ],
      [
        'a tool result without its call id',
        {
          messages: [
            { role: 'user', content: 'x' },
            { role: 'tool', text: 'r' },
          ],
        },
        'messages.1.toolCallId should not be empty',
      ],
      [
        'a tool call without a name',
        {
          messages: [
            { role: 'user', content: 'x' },
            { role: 'assistant', toolCalls: [{ id: '1', arguments: '{}' }] },
          ],
        },
        'messages.1.toolCalls.0.name must be a string',
      ],
      [
        'a temperature that is a string',
        { ...ask('x'), parameters: { temperature: 'hot' } },
        'parameters.temperature must not be greater than 2',
      ],
      [
        'a response format of an unknown type',
        { ...ask('x'), parameters: { responseFormat: { type: 'xml' } } },
        'parameters.responseFormat.type must be one of the following values: text, json',
      ],
    ])('%s', async (_label, body, expected) => {
      const response = await request(subject.url).post('/chat').send(body).expect(400);
      expect(response.body.message).toEqual(expect.arrayContaining([expected]));
    });

    it('a body that is not JSON', async () => {
      await request(subject.url)
        .post('/chat')
        .set('content-type', 'application/json')
        .send('{"messages": [')
        .expect(400);
    });

    it('a JSON array instead of an object', async () => {
      await request(subject.url)
        .post('/chat')
        .send([{ role: 'user', content: 'x' }])
        .expect(400);
    });
  });
});

describe.each(['express', 'fastify'] as const)(
  'chat interceptors and streams under %s',
  (adapter) => {
    let subject: RoutingApp;

    beforeAll(async () => {
      subject = await startRoutingApp(adapter);
    });

    afterAll(async () => {
      await subject.close();
    });

    it('runs the configured and the discovered interceptors on every call', async () => {
      const response = await request(subject.url)
        .post('/chat')
        .send(ask('write to jane@example.com please'))
        .expect(201);
      // RedactEmailsInterceptor ran before the model (which echoes the message)
      expect(response.body.text).toBe('primary: write to [email] please');
      expect(subject.audit.entries.at(-1)).toEqual({
        router: 'support',
        route: 'simple',
        model: 'primary',
        mode: 'chat',
        sawRedactedRequest: true,
      });
    });

    it('streams server-sent events and aborts the provider call when the client goes away', async () => {
      const ticker = subject.models.ticker;
      const received = await readSomeSse(`${subject.url}/ticks?q=go`, 3);
      expect(received).toContain('"type":"text-delta"');
      await waitUntil(() => ticker.finished);
      expect(ticker.signal?.aborted).toBe(true);
      const ticksAtAbort = ticker.ticks;
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(ticker.ticks).toBe(ticksAtAbort);
    });
  },
);

/** Reads `events` SSE data lines, then destroys the connection (the client goes away). */
async function readSomeSse(url: string, events: number): Promise<string> {
  const http = await import('node:http');
  return new Promise((resolve, reject) => {
    const req = http.get(url, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
        if ((body.match(/^data:/gm) ?? []).length >= events) {
          req.destroy();
          resolve(body);
        }
      });
      res.on('error', () => undefined);
    });
    req.on('error', (error) => {
      if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(error);
    });
  });
}

async function waitUntil(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(condition()).toBe(true);
}
