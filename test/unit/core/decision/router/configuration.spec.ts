import { describe, it, expect } from '@jest/globals';
import { DecisionModelChatModelRouter } from '../../../../../src/core/decision/decision-model-chat-model-router.js';
import {
  DEFAULT_QUESTION,
  FallbackStrategy,
  type DecisionModel,
} from '../../../../../src/core/decision/decision-model.js';
import { InvalidConfigurationException } from '../../../../../src/core/errors/exceptions.js';
import { userMessage } from '../../../../../src/core/chat/messages.js';
import {
  COMPLEX,
  CREATIVE,
  ROUTES,
  SIMPLE,
  fakeDecisionModel,
  onlyRequest,
  routingRequest,
} from './fixtures.js';

function configurationError(build: () => unknown): InvalidConfigurationException {
  try {
    build();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidConfigurationException);
    return error as InvalidConfigurationException;
  }
  throw new Error('expected an InvalidConfigurationException');
}

describe('2.3.1 validation', () => {
  it.each([
    ['undefined', undefined],
    ['null', null],
    ['an object without decide', {}],
  ])('rejects a decision model that is %s, naming decisionModel', (_, model) => {
    const error = configurationError(
      () => new DecisionModelChatModelRouter(model as unknown as DecisionModel),
    );
    expect(error.message).toContain('decisionModel');
  });

  it.each([-0.01, 1.01, Number.NaN, '0.5'])(
    'rejects minProbability %p, naming minProbability and the range',
    (minProbability) => {
      const error = configurationError(
        () =>
          new DecisionModelChatModelRouter(fakeDecisionModel(), {
            minProbability: minProbability as number,
          }),
      );
      expect(error.message).toContain('minProbability');
      expect(error.message).toContain('between 0 and 1');
    },
  );

  it.each([0, -1, 1.5])('rejects maxMessages %p, naming maxMessages', (maxMessages) => {
    const error = configurationError(
      () => new DecisionModelChatModelRouter(fakeDecisionModel(), { maxMessages }),
    );
    expect(error.message).toContain('maxMessages');
    expect(error.message).toContain('at least 1');
  });

  it.each(['', '   ', '\n\t'])('rejects the blank question %p, naming question', (question) => {
    const error = configurationError(
      () => new DecisionModelChatModelRouter(fakeDecisionModel(), { question }),
    );
    expect(error.message).toContain('question');
    expect(error.message).toContain('DEFAULT_QUESTION');
  });

  it('rejects an unknown fallback strategy and a logger without warn', () => {
    expect(
      configurationError(
        () =>
          new DecisionModelChatModelRouter(fakeDecisionModel(), {
            fallbackStrategy: 'RETRY' as FallbackStrategy,
          }),
      ).message,
    ).toContain('fallbackStrategy');
    expect(
      configurationError(
        () =>
          new DecisionModelChatModelRouter(fakeDecisionModel(), {
            logger: {} as unknown as { warn: () => void },
          }),
      ).message,
    ).toContain('logger');
  });

  it('accepts the boundaries minProbability 0 and 1 and maxMessages 1', () => {
    expect(
      () => new DecisionModelChatModelRouter(fakeDecisionModel(), { minProbability: 0 }),
    ).not.toThrow();
    expect(
      () =>
        new DecisionModelChatModelRouter(fakeDecisionModel(), {
          minProbability: 1,
          maxMessages: 1,
          fallbackStrategy: FallbackStrategy.FAIL,
        }),
    ).not.toThrow();
  });

  it('asks DEFAULT_QUESTION unless a question is configured', async () => {
    const model = fakeDecisionModel();
    await new DecisionModelChatModelRouter(model).route(routingRequest([userMessage('hi')]));
    expect(onlyRequest(model).question.text).toBe(DEFAULT_QUESTION);
    expect(DEFAULT_QUESTION).toBe('Which model should handle this request?');

    const custom = fakeDecisionModel();
    await new DecisionModelChatModelRouter(custom, { question: 'Which team?' }).route(
      routingRequest([userMessage('hi')]),
    );
    expect(onlyRequest(custom).question.text).toBe('Which team?');
  });
});

describe('2.3.2 options', () => {
  it('offers one option per description, in candidate order, examples only for routes that have them', async () => {
    const model = fakeDecisionModel();
    await new DecisionModelChatModelRouter(model).route(routingRequest([userMessage('hi')]));

    const { options } = onlyRequest(model).question;
    expect(options).toEqual([
      { name: 'simple', description: 'Small talk and short facts' },
      { name: 'complex#1', description: 'Multi-step reasoning', examples: COMPLEX.examples },
      { name: 'complex#2', description: 'Writing or reviewing code', examples: COMPLEX.examples },
      { name: 'creative', description: 'creative' },
    ]);
    expect('examples' in options[0]).toBe(false);
    expect('examples' in options[3]).toBe(false);
  });

  it('follows the order of the candidates it is given', async () => {
    const model = fakeDecisionModel({ value: 'creative' });
    await new DecisionModelChatModelRouter(model).route(
      routingRequest([userMessage('hi')], { routes: [CREATIVE, SIMPLE] }),
    );
    expect(onlyRequest(model).question.options.map((option) => option.name)).toEqual([
      'creative',
      'simple',
    ]);
  });

  it('validate() rejects an option name that occurs twice, naming it', () => {
    const router = new DecisionModelChatModelRouter(fakeDecisionModel());
    const clash = { name: 'complex#1', descriptions: ['Looks like an option of complex'] };

    const error = configurationError(() => router.validate([SIMPLE, COMPLEX, clash]));
    expect(error.message).toContain("'complex#1'");
    expect(error.message).toContain('rename');
  });

  it('validate() accepts routes whose option names are all distinct', () => {
    const router = new DecisionModelChatModelRouter(fakeDecisionModel());
    expect(() => router.validate(ROUTES)).not.toThrow();
  });
});
