import { describe, expect, it } from '@jest/globals';
import type { ChatStreamEvent } from '../../../src/core/chat/chat-model.js';
import type { ChatMessage } from '../../../src/core/chat/messages.js';
import { ProviderException } from '../../../src/core/errors/provider-exception.js';
import { ROUTE_ATTRIBUTE } from '../../../src/core/chat/call-attributes.js';
import { FailoverStrategy } from '../../../src/core/strategies/failover-strategy.js';
import { MODEL_ATTRIBUTE } from '../../../src/core/chat/call-attributes.js';
import { ModelRouter } from '../../../src/core/group/model-router.js';
import { ROUTER_ATTRIBUTE } from '../../../src/core/chat/call-attributes.js';
import { REMOTE_SERVED_ATTRIBUTE } from '../../../src/nest/microservice/remote-served.js';
import { RoutingChatModel } from '../../../src/core/routing/routing-chat-model.js';
import { ChatModelRoutingResult } from '../../../src/core/routing/chat-model-routing-result.js';
import { collect } from '../../support/async.js';
import type { TransportName } from './support/router-service.js';
import { useRouterService } from './support/use-router-service.js';

const ask = (text: string) => ({ messages: [{ role: 'user' as const, content: text }] });

describe.each<TransportName>(['tcp', 'redis'])('RemoteChatModel over %s', (transport) => {
  const handle = useRouterService(transport);

  it('answers a chat as the router would, naming the router, route and model that served it', async () => {
    const response = await handle.remote().chat(ask('hello there'));

    expect(response.aiMessage.text).toBe('echo: hello there');
    expect(response).toMatchObject({ modelName: 'fast-v1', finishReason: 'stop' });
    expect(response.tokenUsage).toEqual({ inputTokens: 3, outputTokens: 2, totalTokens: 5 });
    expect(response.aiMessage.attributes).toEqual({
      [ROUTE_ATTRIBUTE]: 'simple',
      [MODEL_ATTRIBUTE]: 'fast',
      [ROUTER_ATTRIBUTE]: 'main',
      // kept apart: a local router wrapping the RemoteChatModel overwrites the two above
      [REMOTE_SERVED_ATTRIBUTE]: { route: 'simple', model: 'fast' },
    });
    // the call went through the service's interceptor chain like any other
    expect(handle.probe.calls).toEqual([
      expect.objectContaining({ mode: 'chat', router: 'main', route: 'simple', model: 'fast' }),
    ]);
  });

  it('passes the router, attributes and session of the call to the service', async () => {
    const remote = handle.remote({ router: 'main' });
    await remote.chat(ask('hi'), {
      attributes: { tenant: 'acme', [ROUTE_ATTRIBUTE]: 'local-route' },
      session: 'conversation-7',
    });

    const [call] = handle.probe.calls;
    expect(call?.attributes).toMatchObject({
      tenant: 'acme',
      model_router: 'main',
      model_router_session: 'conversation-7',
    });
    // the local call's own route attribute describes the local call: it is not sent
    expect(call?.attributes[ROUTE_ATTRIBUTE]).toBeUndefined();
  });

  it('streams many events in order, then exactly one complete carrying the route', async () => {
    const events = await collect(handle.remote().stream(ask('count 300')));

    const deltas = events.filter((event) => event.type === 'text-delta');
    expect(deltas.map((event) => event.text)).toEqual(
      Array.from({ length: 300 }, (_, index) => `${index} `),
    );
    expect(events.at(-1)?.type).toBe('complete');
    expect(events.filter((event) => event.type === 'complete')).toHaveLength(1);
    const complete = events.at(-1) as Extract<ChatStreamEvent, { type: 'complete' }>;
    expect(complete.response.aiMessage.attributes).toMatchObject({
      [ROUTE_ATTRIBUTE]: 'simple',
      [ROUTER_ATTRIBUTE]: 'main',
    });
    expect(handle.probe.calls).toEqual([
      expect.objectContaining({ mode: 'stream', route: 'simple' }),
    ]);
  });

  it('keeps a tool loop on its route over two rounds: the router is asked once', async () => {
    const remote = handle.remote();
    const messages: ChatMessage[] = [{ role: 'user', content: 'a complex question' }];

    for (const round of [1, 2]) {
      const response = await remote.chat({ messages });
      expect(response.aiMessage.toolCalls).toEqual([
        { id: `call-${round}`, name: 'lookup', arguments: `{"round":${round}}` },
      ]);
      expect(response.aiMessage.attributes?.[ROUTE_ATTRIBUTE]).toBe('complex');
      // the conversation travels as JSON, as an API service would keep it
      messages.push(JSON.parse(JSON.stringify(response.aiMessage)) as ChatMessage, {
        role: 'tool',
        toolCallId: `call-${round}`,
        text: `result ${round}`,
      });
    }
    const final = await remote.chat({ messages });

    expect(final.aiMessage.text).toBe('done after 2 tools');
    expect(final.aiMessage.attributes?.[ROUTE_ATTRIBUTE]).toBe('complex');
    expect(handle.probe.routerCalls).toBe(1);
  });

  it("keeps the service's route in a tool loop when a local router wraps the RemoteChatModel", async () => {
    let localRouterCalls = 0;
    const local = new RoutingChatModel({
      routes: [
        { name: 'via-service', model: handle.remote() },
        { name: 'unused', model: { chat: () => Promise.reject(new Error('not this one')) } },
      ],
      router: () => {
        localRouterCalls++;
        return ChatModelRoutingResult.route('via-service');
      },
      defaultRoute: 'via-service',
    });
    const messages: ChatMessage[] = [{ role: 'user', content: 'a complex question' }];

    for (const round of [1, 2]) {
      const response = await local.chat({ messages });
      expect(response.aiMessage.toolCalls?.[0]?.id).toBe(`call-${round}`);
      // the local router's name wins on the way out, the service's is kept apart
      expect(response.aiMessage.attributes?.[ROUTE_ATTRIBUTE]).toBe('via-service');
      expect(response.aiMessage.attributes?.[REMOTE_SERVED_ATTRIBUTE]).toMatchObject({
        route: 'complex',
      });
      messages.push(JSON.parse(JSON.stringify(response.aiMessage)) as ChatMessage, {
        role: 'tool',
        toolCallId: `call-${round}`,
        text: `result ${round}`,
      });
    }
    const final = await local.chat({ messages });

    expect(final.aiMessage.text).toBe('done after 2 tools');
    expect(localRouterCalls).toBe(1);
    expect(handle.probe.routerCalls).toBe(1);
    // the caller's conversation is left as it was
    expect(
      (messages[1] as { attributes?: Record<string, unknown> }).attributes?.[ROUTE_ATTRIBUTE],
    ).toBe('via-service');
  });

  it('serves 100 concurrent calls, each with its own answer', async () => {
    const remote = handle.remote();
    const texts = Array.from({ length: 100 }, (_, index) => `question ${index}`);

    const answers = await Promise.all(
      texts.map(async (text, index) => {
        if (index % 2 === 0) return (await remote.chat(ask(text))).aiMessage.text;
        const events = await collect(remote.stream(ask(text)));
        const complete = events.at(-1) as Extract<ChatStreamEvent, { type: 'complete' }>;
        return complete.response.aiMessage.text;
      }),
    );

    expect(answers).toEqual(texts.map((text) => `echo: ${text}`));
    expect(handle.probe.calls).toHaveLength(100);
  });

  it('lists the routers and models, and reports the same health as the indicator', async () => {
    const remote = handle.remote();

    await expect(remote.models()).resolves.toEqual({
      routers: ['main', 'exhausted', 'limited', 'slow', 'misrouted', 'leaky', 'hanging'],
      models: ['echo'],
      defaultRouter: 'main',
    });
    const health = await remote.health();
    expect(health.status).toBe('up');
    expect(health.routers.main).toEqual(expect.objectContaining({ status: 'up' }));
    expect(health.stateStore).toEqual(expect.objectContaining({ shared: false }));
  });

  it('is a member of a local group: the fallback of a failing local model', async () => {
    const local = new ModelRouter({
      routes: [
        {
          name: 'local',
          model: {
            chat: () =>
              Promise.reject(
                new ProviderException('local 503', {
                  kind: 'transient',
                  provider: 'local',
                  status: 503,
                }),
              ),
          },
        },
        { name: 'remote', model: handle.remote() },
      ],
      routingStrategy: new FailoverStrategy({ cooldownMs: 60_000 }),
    });

    const response = await local.chat(ask('via the fallback'));

    expect(response.aiMessage.text).toBe('echo: via the fallback');
    expect(response.aiMessage.attributes?.[ROUTE_ATTRIBUTE]).toBe('simple');
  });

  it('is a member of a local group: a failing remote router fails over to a local model', async () => {
    const local = new ModelRouter({
      routes: [
        { name: 'remote', model: handle.remote({ router: 'limited' }) },
        {
          name: 'local',
          model: { chat: async () => ({ aiMessage: { role: 'assistant', text: 'local answer' } }) },
        },
      ],
      routingStrategy: new FailoverStrategy({ cooldownMs: 60_000 }),
    });

    const response = await local.chat(ask('anything'));

    expect(response.aiMessage.text).toBe('local answer');
  });
});
