import { describe, expect, it, jest } from '@jest/globals';
import { assertChatRequest } from '../../../../src/core/chat/assert-chat-request.js';
import type { ChatRequest, ChatRequestParameters } from '../../../../src/core/chat/request.js';
import { InvalidChatRequestException } from '../../../../src/core/errors/invalid-chat-request.exception.js';
import { ModelRouter } from '../../../../src/core/group/model-router.js';
import { FailoverStrategy } from '../../../../src/core/strategies/failover-strategy.js';

const messages = [{ role: 'user' as const, content: 'hi' }];
const withParameters = (parameters: unknown) => ({ messages, parameters }) as ChatRequest;

describe('the forwarded sampling parameters are bounded before any model is called', () => {
  it.each<[string, unknown]>([
    ['seed', 1.5],
    ['frequencyPenalty', 2.01],
    ['presencePenalty', -2.01],
    ['logitBias', { '1': -101 }],
    ['logitBias', { token: 1 }],
    ['logitBias', Object.fromEntries(Array.from({ length: 301 }, (_, i) => [String(i), 0]))],
    ['logprobs', 'yes'],
    ['topLogprobs', 21],
    ['topK', 0],
    ['user', 'u'.repeat(257)],
    ['parallelToolCalls', 1],
    ['reasoningEffort', 'max'],
    ['serviceTier', 'Priority Please'],
  ])('refuses %s = %j, naming the field', (field, value) => {
    const request = withParameters({ [field]: value });
    expect(() => assertChatRequest(request)).toThrow(InvalidChatRequestException);
    expect(() => assertChatRequest(request)).toThrow(`parameters.${field}`);
  });

  it('accepts every parameter at its bounds', () => {
    const parameters: ChatRequestParameters = {
      seed: -9007199254740991,
      frequencyPenalty: -2,
      presencePenalty: 2,
      logitBias: Object.fromEntries(Array.from({ length: 300 }, (_, i) => [String(i), 100])),
      logprobs: false,
      topLogprobs: 20,
      topK: 1,
      user: 'u'.repeat(256),
      parallelToolCalls: true,
      reasoningEffort: 'xhigh',
      serviceTier: 'priority',
    };
    expect(() => assertChatRequest(withParameters(parameters))).not.toThrow();
    expect(() => assertChatRequest(withParameters(null))).not.toThrow();
  });

  it('calls no model of a group for an out-of-range value', async () => {
    const model = { chat: jest.fn(async () => ({ aiMessage: { role: 'assistant' as const } })) };
    const router = new ModelRouter({
      routes: [{ name: 'a', model }],
      routingStrategy: new FailoverStrategy({ cooldownMs: 60_000, clock: () => 0 }),
    });
    await expect(router.chat(withParameters({ topLogprobs: 50 }))).rejects.toThrow(
      'parameters.topLogprobs must be an integer from 0 to 20',
    );
    expect(model.chat).not.toHaveBeenCalled();
  });
});
