import { describe, expect, it } from '@jest/globals';
import { cacheKeys } from '../../../../src/core/cache/cache-key.js';
import type { ChatRequest } from '../../../../src/core/chat/request.js';

const base: ChatRequest = {
  messages: [
    { role: 'system', text: 'Be terse.' },
    { role: 'user', content: 'What is the capital of France?' },
  ],
  parameters: { temperature: 0.5, maxOutputTokens: 100 },
};
const exact = (request: ChatRequest, partition?: string, target = 'auto') =>
  cacheKeys(request, { target, ...(partition !== undefined ? { partition } : {}) })!.exact;

describe('cacheKeys', () => {
  it('is the same for the same request, whatever the order of its object keys', () => {
    const reordered: ChatRequest = {
      parameters: { maxOutputTokens: 100, temperature: 0.5 },
      messages: base.messages,
    };
    expect(exact(reordered)).toBe(exact(base));
  });

  it.each<[string, ChatRequest]>([
    [
      'system prompt',
      { ...base, messages: [{ role: 'system', text: 'Be kind.' }, base.messages[1]!] },
    ],
    ['temperature', { ...base, parameters: { ...base.parameters, temperature: 0.7 } }],
    ['top p', { ...base, parameters: { ...base.parameters, topP: 0.9 } }],
    ['max tokens', { ...base, parameters: { ...base.parameters, maxOutputTokens: 101 } }],
    ['stop sequences', { ...base, parameters: { ...base.parameters, stopSequences: ['\n'] } }],
    ['tool choice', { ...base, parameters: { ...base.parameters, toolChoice: 'required' } }],
    [
      'response format',
      { ...base, parameters: { ...base.parameters, responseFormat: { type: 'json' } } },
    ],
    [
      'tools',
      { ...base, parameters: { ...base.parameters, tools: [{ name: 'lookup', parameters: {} }] } },
    ],
    ['seed', { ...base, parameters: { ...base.parameters, seed: 7 } }],
    ['frequency penalty', { ...base, parameters: { ...base.parameters, frequencyPenalty: 1 } }],
    ['presence penalty', { ...base, parameters: { ...base.parameters, presencePenalty: 1 } }],
    ['logit bias', { ...base, parameters: { ...base.parameters, logitBias: { '42': -100 } } }],
    ['logprobs', { ...base, parameters: { ...base.parameters, logprobs: true } }],
    ['top logprobs', { ...base, parameters: { ...base.parameters, topLogprobs: 2 } }],
    ['top k', { ...base, parameters: { ...base.parameters, topK: 5 } }],
    ['reasoning effort', { ...base, parameters: { ...base.parameters, reasoningEffort: 'low' } }],
    [
      'a parameter it does not know',
      { ...base, parameters: { ...base.parameters, verbosity: 'low' } as never },
    ],
  ])('changes with the %s', (_, changed) => {
    expect(exact(changed)).not.toBe(exact(base));
  });

  it('is the same whoever the end user is and whatever the service tier', () => {
    const named: ChatRequest = {
      ...base,
      parameters: { ...base.parameters, user: 'end-user-7', serviceTier: 'flex' },
    };
    expect(exact(named)).toBe(exact(base));
  });

  it('changes with the target and the partition', () => {
    expect(exact(base, undefined, 'other')).not.toBe(exact(base));
    expect(exact(base, 'team-a')).not.toBe(exact(base, 'team-b'));
    expect(exact(base, 'team-a')).not.toBe(exact(base));
  });

  it('buckets by everything but the last question, whose text it keeps for matching', () => {
    const paraphrase: ChatRequest = {
      ...base,
      messages: [base.messages[0]!, { role: 'user', content: "what's the capital city of France" }],
    };
    const [a, b] = [
      cacheKeys(base, { target: 'auto' })!,
      cacheKeys(paraphrase, { target: 'auto' })!,
    ];
    expect(a.bucket).toBe(b.bucket);
    expect(a.exact).not.toBe(b.exact);
    expect(b.lastUserText).toBe("what's the capital city of France");
    const otherSystem = cacheKeys(
      { ...paraphrase, messages: [{ role: 'system', text: 'x' }, paraphrase.messages[1]!] },
      { target: 'auto' },
    )!;
    expect(otherSystem.bucket).not.toBe(a.bucket);
  });

  it('has no bucket when the last message is not plain user text', () => {
    const tool: ChatRequest = {
      messages: [...base.messages, { role: 'tool', toolCallId: 'c1', text: 'ok' }],
    };
    expect(cacheKeys(tool, { target: 'auto' })!.bucket).toBeUndefined();
  });

  it('keys nothing larger than its bound (such a request is served and not stored)', () => {
    const big: ChatRequest = { messages: [{ role: 'user', content: 'x'.repeat(2000) }] };
    expect(cacheKeys(big, { target: 'auto' }, 1000)).toBeUndefined();
    expect(cacheKeys(big, { target: 'auto' }, 4000)).toBeDefined();
  });

  it('is a hash that says nothing of the request', () => {
    const keys = cacheKeys(base, { target: 'auto', partition: 'team-a' })!;
    expect(keys.exact).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(keys.exact).not.toContain('team');
  });
});
