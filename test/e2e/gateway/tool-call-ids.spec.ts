import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Registry } from 'prom-client';
import { ToolCallIds } from '../../../apps/gateway/src/openai/tool-call-ids.js';
import type { GatewayConfig } from '../../../apps/gateway/src/config/gateway-config.js';
import {
  type ChatModel,
  type ChatRequest,
  ChatModelRoutingResult,
  RoutingChatModel,
} from '../../../src/index.js';
import { startGateway, type RunningGateway } from './gateway-harness.js';

const SECRET = 'the-deployment-tool-call-secret';

/** Calls the `lookup` tool on a user turn; answers in text once the tool's result is back. */
const toolCaller = (name: string): ChatModel => ({
  chat: async (request: ChatRequest) => {
    const last = request.messages.at(-1);
    if (last?.role === 'tool') return { aiMessage: { role: 'assistant', text: `${name} done` } };
    return {
      aiMessage: {
        role: 'assistant',
        toolCalls: [{ id: `call_${name}`, name: 'lookup', arguments: '{}' }],
      },
      finishReason: 'tool_calls',
    };
  },
});

/** Routes by the last user message ("use a" / "use b"). */
function config(): GatewayConfig {
  const main = new RoutingChatModel({
    routes: [
      { name: 'a', description: 'a', model: toolCaller('a') },
      { name: 'b', description: 'b', model: toolCaller('b') },
    ],
    router: ({ chatRequest }) => {
      const user = chatRequest.messages.findLast((m) => m.role === 'user');
      const text = typeof user?.content === 'string' ? user.content : '';
      return ChatModelRoutingResult.route(text.includes('use b') ? 'b' : 'a');
    },
    defaultRoute: 'a',
  });
  return { module: { routers: { main } }, toolCallSecret: SECRET };
}

/** One chat round, with a tool loop under `toolCallId` when given. */
async function round(target: RunningGateway, user: string, toolCallId?: string, key?: string) {
  const messages: unknown[] = [{ role: 'user', content: user }];
  if (toolCallId) {
    messages.push(
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: toolCallId, type: 'function', function: { name: 'lookup', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: toolCallId, content: '42' },
    );
  }
  const answer = await fetch(`${target.url}/v1/chat/completions`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(key ? { authorization: `Bearer ${key}` } : {}),
    },
    body: JSON.stringify({ model: 'main', messages }),
  });
  expect(answer.status).toBe(200);
  const body = (await answer.json()) as {
    choices: { message: { content: string | null; tool_calls?: { id: string }[] } }[];
  };
  return { route: answer.headers.get('x-model-router-route'), message: body.choices[0]!.message };
}

describe('signed tool call ids', () => {
  let gateway: RunningGateway;
  let replica: RunningGateway;

  beforeAll(async () => {
    gateway = await startGateway({ config: config(), metricsRegistry: new Registry() });
    replica = await startGateway({ config: config(), metricsRegistry: new Registry() });
  });

  afterAll(async () => {
    await gateway.close();
    await replica.close();
  });

  it('a genuine id brings the tool round back to its route, on any replica with the secret', async () => {
    const first = await round(gateway, 'use b');
    expect(first.route).toBe('b');
    const id = first.message.tool_calls![0]!.id;
    expect(id).toMatch(/^mr-[0-9a-f]+-[0-9a-f]{32}-call_b$/);
    // the router alone would pick a for this conversation: the id decides
    const back = await round(replica, 'use a', id);
    expect(back).toEqual({ route: 'b', message: { role: 'assistant', content: 'b done' } });
  });

  it('a forged id (another secret, an edited route, an old unsigned one) is ignored', async () => {
    const forged = [
      new ToolCallIds('an-attacker-guess').encode('call_b', { route: 'b' }),
      (await round(gateway, 'use a')).message.tool_calls![0]!.id.replace(
        /^mr-[0-9a-f]+/,
        `mr-${Buffer.from('b\u0000').toString('hex')}`,
      ),
      `mr-${Buffer.from('b\u0000').toString('hex')}-call_b`,
    ];
    for (const id of forged) {
      expect(await round(gateway, 'use a', id)).toEqual({
        route: 'a',
        message: { role: 'assistant', content: 'a done' },
      });
    }
  });
});

describe('tool call ids are bound to the API key that received them (issue 24, point 7)', () => {
  const KEY_A = 'sk-tool-ids-team-a-0123456789';
  const KEY_B = 'sk-tool-ids-team-b-9876543210';
  let gateway: RunningGateway;
  let replica: RunningGateway;
  const withAuth = (): GatewayConfig => ({
    ...config(),
    auth: {
      keys: [
        { name: 'team-a', key: KEY_A },
        { name: 'team-b', key: KEY_B },
      ],
    },
  });

  beforeAll(async () => {
    gateway = await startGateway({ config: withAuth(), metricsRegistry: new Registry() });
    replica = await startGateway({ config: withAuth(), metricsRegistry: new Registry() });
  });

  afterAll(async () => {
    await gateway.close();
    await replica.close();
  });

  it('another key’s id is ignored; the key’s own id holds, on any replica', async () => {
    const first = await round(gateway, 'use b', undefined, KEY_A);
    expect(first.route).toBe('b');
    const id = first.message.tool_calls![0]!.id;
    expect(await round(gateway, 'use a', id, KEY_B)).toEqual({
      route: 'a',
      message: { role: 'assistant', content: 'a done' },
    });
    expect(await round(replica, 'use a', id, KEY_A)).toEqual({
      route: 'b',
      message: { role: 'assistant', content: 'b done' },
    });
  });
});
