import { describe, it, expect } from '@jest/globals';
import {
  aiMessage,
  systemMessage,
  toolResultMessage,
  userMessage,
  type ChatMessage,
} from '../../../../../src/core/chat/messages.js';
import { DecisionModelChatModelRouter } from '../../../../../src/core/decision/decision-model-chat-model-router.js';
import { MAX_DECISION_TURN_CHARS } from '../../../../../src/core/decision/decision-input.js';
import { COMPLEX, fakeDecisionModel, onlyRequest, routingRequest } from './fixtures.js';

async function inputFor(messages: ChatMessage[], maxMessages?: number) {
  const model = fakeDecisionModel();
  await new DecisionModelChatModelRouter(model, { maxMessages }).route(routingRequest(messages));
  return onlyRequest(model).input;
}

describe('2.3.3 one candidate', () => {
  it('chooses the only candidate without calling the decision model', async () => {
    const model = fakeDecisionModel({ value: 'simple' });
    const result = await new DecisionModelChatModelRouter(model).route(
      routingRequest([userMessage('Refactor this function')], {
        routes: [COMPLEX],
        defaultRoute: 'complex',
      }),
    );
    expect(result.routeName).toBe('complex');
    expect(result.isDefaultRoute).toBe(false);
    expect(model.decide).not.toHaveBeenCalled();
  });
});

describe('2.3.4 no user message', () => {
  it.each<[string, ChatMessage[]]>([
    ['no messages', []],
    ['only a system message', [systemMessage('You are helpful')]],
    [
      'a blank last user message',
      [userMessage('Prove it'), aiMessage('Sure'), userMessage('  \n')],
    ],
    ['a last user message of blank parts', [userMessage([{ type: 'text', text: ' ' }])]],
  ])('uses the default route for %s, without calling the decision model', async (_, messages) => {
    const model = fakeDecisionModel({ value: 'complex#1' });
    const result = await new DecisionModelChatModelRouter(model).route(routingRequest(messages));
    expect(result.isDefaultRoute).toBe(true);
    expect(result.routeName).toBeUndefined();
    expect(model.decide).not.toHaveBeenCalled();
  });

  it("names the request's default route when the request carries one", async () => {
    const model = fakeDecisionModel({ value: 'complex#1' });
    const result = await new DecisionModelChatModelRouter(model).route(
      routingRequest([systemMessage('You are helpful')], { defaultRoute: 'creative' }),
    );
    expect(result.routeName).toBe('creative');
    expect(model.decide).not.toHaveBeenCalled();
  });
});

describe('2.3.5 message text', () => {
  it('joins user message parts with newlines and names attachments', async () => {
    const input = await inputFor(
      [
        userMessage([
          { type: 'text', text: 'What is in these?' },
          { type: 'image', url: 'https://example.test/a.png' },
          { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
          { type: 'video', url: 'https://example.test/v.mp4' },
          { type: 'pdf', data: 'JVBERi0=' },
          { type: 'text', text: 'Be brief.' },
        ]),
      ],
      1,
    );
    expect(input).toBe(
      'What is in these?\n[attached image]\n[attached audio]\n[attached video]\n[attached pdf]\nBe brief.',
    );
  });

  it('takes an AI message by its text; system, tool and text-less AI messages contribute nothing', async () => {
    const input = await inputFor(
      [
        systemMessage('You are helpful'),
        userMessage('Weather in Oslo?'),
        aiMessage({ toolCalls: [{ id: 't1', name: 'weather', arguments: '{}' }] }),
        toolResultMessage('t1', 'rain', 'weather'),
        aiMessage('It rains in Oslo.'),
        userMessage('And tomorrow?'),
      ],
      10,
    );
    expect(input).toEqual({
      messages: [
        { role: 'user', text: 'Weather in Oslo?' },
        { role: 'assistant', text: 'It rains in Oslo.' },
        { role: 'user', text: 'And tomorrow?' },
      ],
    });
  });
});

describe('2.3.6 input', () => {
  const conversation: ChatMessage[] = [
    userMessage('one'),
    aiMessage('two'),
    userMessage('three'),
    aiMessage('four'),
    userMessage('five'),
  ];

  it('is the last user message as a string when maxMessages is 1', async () => {
    expect(await inputFor([...conversation, aiMessage('six')], 1)).toBe('five');
  });

  it('is the last 3 user/assistant messages by default', async () => {
    expect(await inputFor(conversation)).toEqual({
      messages: [
        { role: 'user', text: 'three' },
        { role: 'assistant', text: 'four' },
        { role: 'user', text: 'five' },
      ],
    });
  });

  it('ends at the last user message and skips blank messages before counting', async () => {
    const input = await inputFor(
      [
        userMessage('one'),
        aiMessage('two'),
        aiMessage('   '),
        userMessage(''),
        userMessage('three'),
        aiMessage({ toolCalls: [{ id: 't1', name: 'lookup', arguments: '{}' }] }),
        toolResultMessage('t1', 'found'),
      ],
      2,
    );
    expect(input).toEqual({
      messages: [
        { role: 'assistant', text: 'two' },
        { role: 'user', text: 'three' },
      ],
    });
  });

  it('keeps every message when there are fewer than maxMessages', async () => {
    expect(await inputFor([userMessage('only')], 5)).toEqual({
      messages: [{ role: 'user', text: 'only' }],
    });
  });
});

describe('a bounded decision input', () => {
  const paste = (n: number) => 'lorem ipsum '.repeat(n);

  it('reads the start and the end of a long message, not the paste between', async () => {
    const text = `Summarise this contract: ${paste(100_000)} What is the notice period?`;
    const input = await inputFor([userMessage(text)], 1);
    expect(typeof input).toBe('string');
    const read = input as string;
    expect(read.length).toBeLessThanOrEqual(MAX_DECISION_TURN_CHARS);
    expect(read.startsWith('Summarise this contract:')).toBe(true);
    expect(read.endsWith('What is the notice period?')).toBe(true);
  });

  it('bounds every turn of a conversation and keeps short ones whole', async () => {
    const messages = [
      userMessage(paste(50_000)),
      aiMessage(paste(50_000)),
      userMessage('yes please'),
    ];
    const input = await inputFor(messages, 3);
    const turns = (input as { messages: { text: string }[] }).messages;
    expect(turns.map((turn) => turn.text.length <= MAX_DECISION_TURN_CHARS)).toEqual([
      true,
      true,
      true,
    ]);
    expect(turns[2]!.text).toBe('yes please');
  });
});
