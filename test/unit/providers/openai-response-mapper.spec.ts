import { describe, expect, it } from '@jest/globals';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import { logprobsAttribute, refusalAttribute } from '../../../src/core/index.js';
import { fromOpenAiCompletion } from '../../../src/providers/openai/openai-response-mapper.js';

const completion = (message: object, logprobs: object | null = null) =>
  ({
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model: 'gpt-x',
    choices: [
      { index: 0, message: { role: 'assistant', ...message }, finish_reason: 'stop', logprobs },
    ],
  }) as unknown as ChatCompletion;

describe('fromOpenAiCompletion', () => {
  it('gives a plain answer no attributes at all', () => {
    const response = fromOpenAiCompletion(completion({ content: 'Paris.' }), 'gpt-x')!;
    expect(response.aiMessage).toEqual({ role: 'assistant', text: 'Paris.' });
    expect('attributes' in response.aiMessage).toBe(false);
  });

  it('keeps a refusal (as the text too) and the logprobs in the attributes', () => {
    const refused = fromOpenAiCompletion(completion({ content: null, refusal: 'No.' }), 'gpt-x')!;
    expect(refused.aiMessage.text).toBe('No.');
    expect(refusalAttribute.of(refused.aiMessage.attributes)).toBe('No.');
    const withLogprobs = fromOpenAiCompletion(
      completion(
        { content: 'A' },
        { content: [{ token: 'A', logprob: -0.1, bytes: null, top_logprobs: [] }] },
      ),
      'gpt-x',
    )!;
    expect(logprobsAttribute.of(withLogprobs.aiMessage.attributes)).toEqual([
      { token: 'A', logprob: -0.1, topLogprobs: [] },
    ]);
    expect(refusalAttribute.of(withLogprobs.aiMessage.attributes)).toBeUndefined();
  });
});
