import { describe, expect, it, jest } from '@jest/globals';
import { assertChatRequest } from '../../../../src/core/chat/assert-chat-request.js';
import type { ChatModel } from '../../../../src/core/chat/chat-model.js';
import type { ChatRequest } from '../../../../src/core/chat/request.js';
import type { ChatResponse } from '../../../../src/core/chat/response.js';
import { RoutingException } from '../../../../src/core/errors/exceptions.js';
import { InvalidChatRequestException } from '../../../../src/core/errors/invalid-chat-request.exception.js';
import { classifyError } from '../../../../src/core/resilience/error-classification.js';
import { ChatModelRoutingResult } from '../../../../src/core/routing/chat-model-routing-result.js';
import { RoutingChatModel } from '../../../../src/core/routing/routing-chat-model.js';
import { FailoverStrategy } from '../../../../src/core/strategies/failover-strategy.js';
import { ModelRouter } from '../../../../src/core/group/model-router.js';

/** A model that would crash on a malformed message, as real ones do (`text.match`, `m.role`). */
function strictModel(name: string) {
  return {
    chat: jest.fn(async (request: ChatRequest): Promise<ChatResponse> => {
      const words = request.messages.map((m) => (m.role === 'user' ? m.content : m.role));
      return { aiMessage: { role: 'assistant', text: `${name}: ${words.join(' ')}` } };
    }),
  } satisfies ChatModel;
}

function group() {
  const a = strictModel('a');
  const b = strictModel('b');
  const router = new ModelRouter({
    routes: [
      { name: 'a', model: a },
      { name: 'b', model: b },
    ],
    routingStrategy: new FailoverStrategy({ cooldownMs: 60_000, clock: () => 0 }),
  });
  return { a, b, router };
}

const malformed: [string, unknown, string][] = [
  ['a null message', [null], 'messages[0] must be a message object'],
  ['a message that is a string', ['hello'], 'got a string'],
  ['an unknown role', [{ role: 'wizard', content: 'x' }], 'messages[0].role must be one of'],
  ['user content that is a number', [{ role: 'user', content: 5 }], 'messages[0].content'],
  ['user content that is null', [{ role: 'user', content: null }], 'messages[0].content'],
  [
    'a content part of an unknown type',
    [{ role: 'user', content: [{ type: 'hologram' }] }],
    'messages[0].content[0].type must be one of text, image, audio, video, pdf',
  ],
  [
    'a text part without text',
    [{ role: 'user', content: [{ type: 'text' }] }],
    'messages[0].content[0].text',
  ],
  ['a system message without text', [{ role: 'system' }], 'messages[0].text'],
  [
    'assistant text as content parts',
    [
      { role: 'user', content: 'hi' },
      { role: 'assistant', text: [{ type: 'text', text: 'x' }] },
    ],
    'messages[1].text must be a string',
  ],
  [
    'tool calls that are not an array',
    [{ role: 'assistant', toolCalls: 'call' }],
    'messages[0].toolCalls',
  ],
  ['a tool result without its call id', [{ role: 'tool', text: 'r' }], 'messages[0].toolCallId'],
  [
    'a tool result whose text is parts',
    [{ role: 'tool', toolCallId: 'c1', text: [{ type: 'text', text: 'r' }] }],
    'messages[0].text must be a string',
  ],
];

describe('assertChatRequest: malformed messages are the caller’s error, not the models’', () => {
  it.each(malformed)('refuses %s with a RoutingException naming the field', (_, messages, text) => {
    expect(() => assertChatRequest({ messages })).toThrow(RoutingException);
    expect(() => assertChatRequest({ messages })).toThrow(text);
  });

  it('is the caller’s error: an InvalidChatRequestException the resilience layer never fails over', () => {
    let error: unknown;
    try {
      assertChatRequest({ messages: [null] });
    } catch (caught) {
      error = caught;
    }

    expect(error).toBeInstanceOf(InvalidChatRequestException);
    expect(error).toBeInstanceOf(RoutingException);
    expect(classifyError(error)).toBe('invalid-request');
  });

  it('accepts every shape of the chat types, and no messages at all', () => {
    const messages = [
      { role: 'system', text: 'be brief' },
      { role: 'user', content: 'hi', name: 'ann' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image', url: 'https://example.com/a.png' },
          { type: 'pdf', data: 'JVBERi0=' },
        ],
      },
      { role: 'assistant' },
      { role: 'assistant', text: 'calling', toolCalls: [{ id: 'c1', name: 'f', arguments: '{}' }] },
      { role: 'tool', toolCallId: 'c1', toolName: 'f', text: 'done' },
    ];
    expect(() => assertChatRequest({ messages })).not.toThrow();
    expect(() => assertChatRequest({ messages: [] })).not.toThrow();
  });

  it('never quotes the content of a message, only its type', () => {
    const secret = 'my password is hunter2';
    let message = '';
    try {
      assertChatRequest({ messages: [secret] });
    } catch (error) {
      message = (error as Error).message;
    }

    expect(message).toContain('messages[0] must be a message object');
    expect(message).not.toContain('hunter2');
  });

  it('ModelRouter calls no model and cools none down for a malformed request', async () => {
    const { a, b, router } = group();
    const bad = { messages: [{ role: 'user', content: 5 }] } as unknown as ChatRequest;

    await expect(router.chat(bad)).rejects.toThrow(RoutingException);
    await expect(
      (async () => {
        for await (const _ of router.stream(bad)) {
          // never reached
        }
      })(),
    ).rejects.toThrow('messages[0].content');

    expect(a.chat).not.toHaveBeenCalled();
    expect(b.chat).not.toHaveBeenCalled();
    expect(router.inspectModels().map((m) => m.state)).toEqual(['available', 'available']);
    // and the group still answers the next, well-formed, request with its first model
    const answer = await router.chat({ messages: [{ role: 'user', content: 'hi' }] });
    expect(answer.aiMessage.text).toBe('a: hi');
  });

  it('RoutingChatModel refuses it before asking the router', async () => {
    const { a, router: simple } = group();
    const route = jest.fn(() => ChatModelRoutingResult.defaultRoute());
    const routing = new RoutingChatModel({
      routes: [{ name: 'simple', model: simple }],
      router: route,
      defaultRoute: 'simple',
    });
    const bad = { messages: [{ role: 'user', content: 'hi' }, null] } as unknown as ChatRequest;

    await expect(routing.chat(bad)).rejects.toThrow('messages[1] must be a message object');
    expect(route).not.toHaveBeenCalled();
    expect(a.chat).not.toHaveBeenCalled();
  });
});
