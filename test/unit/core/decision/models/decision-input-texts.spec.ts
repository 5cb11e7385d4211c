import { describe, expect, it } from '@jest/globals';
import { InvalidConfigurationException } from '../../../../../src/core/errors/exceptions.js';
import {
  validatedOptions,
  weightedInputTexts,
} from '../../../../../src/core/decision/models/decision-input-texts.js';
import type { DecisionRequest } from '../../../../../src/core/decision/decision-model.js';

describe('weightedInputTexts', () => {
  it('a string is one text of weight 1; a blank one is nothing', () => {
    expect(weightedInputTexts('hello')).toEqual([{ text: 'hello', weight: 1 }]);
    expect(weightedInputTexts('   ')).toEqual([]);
  });

  it('a last user message that announces a new topic is the only text', () => {
    const messages = [
      { role: 'user' as const, text: 'give me a curry recipe' },
      { role: 'assistant' as const, text: 'Here is one with chickpeas.' },
      { role: 'user' as const, text: 'thanks! unrelated: how do I centre a div?' },
    ];
    expect(weightedInputTexts({ messages })).toEqual([
      { text: 'thanks! unrelated: how do I centre a div?', weight: 1 },
    ]);
    const followUp = [...messages.slice(0, 2), { role: 'user' as const, text: 'another one' }];
    expect(weightedInputTexts({ messages: followUp })).toHaveLength(3);
  });

  it('the last user message weighs most, then earlier user messages, then assistant messages', () => {
    const texts = weightedInputTexts({
      messages: [
        { role: 'user', text: 'first question' },
        { role: 'assistant', text: 'an answer' },
        { role: 'user', text: '  ' },
        { role: 'user', text: 'last question' },
      ],
    });
    expect(texts).toEqual([
      { text: 'first question', weight: 0.35 },
      { text: 'an answer', weight: 0.15 },
      { text: 'last question', weight: 1 },
    ]);
  });

  it('custom weights apply, and a zero weight leaves the message out', () => {
    const texts = weightedInputTexts(
      {
        messages: [
          { role: 'assistant', text: 'a' },
          { role: 'user', text: 'b' },
        ],
      },
      { lastUser: 2, earlierUser: 1, assistant: 0 },
    );
    expect(texts).toEqual([{ text: 'b', weight: 2 }]);
  });

  it('an input that is neither a string nor { messages } is a typed error naming the field', () => {
    expect(() => weightedInputTexts({} as never)).toThrow(InvalidConfigurationException);
    expect(() => weightedInputTexts(null as never)).toThrow('(input)');
  });
});

const request = (options: unknown): DecisionRequest =>
  ({ input: 'x', question: { text: 'q', options } }) as DecisionRequest;

describe('validatedOptions', () => {
  it('rejects no options, blank names, duplicate names and missing descriptions', () => {
    expect(() => validatedOptions(request([]))).toThrow('question.options');
    expect(() => validatedOptions(request(undefined))).toThrow('question.options');
    expect(() => validatedOptions(request([{ name: ' ', description: 'd' }]))).toThrow(
      'question.options[].name',
    );
    expect(() =>
      validatedOptions(
        request([
          { name: 'a', description: 'd' },
          { name: 'a', description: 'e' },
        ]),
      ),
    ).toThrow("more than one option named 'a'");
    expect(() => validatedOptions(request([{ name: 'a' }]))).toThrow(
      "option 'a' needs a description",
    );
  });

  it('returns the options when they are usable', () => {
    const options = [{ name: 'a', description: 'd', examples: ['e'] }];
    expect(validatedOptions(request(options))).toBe(options);
  });
});
