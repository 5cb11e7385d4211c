import { describe, it, expect } from '@jest/globals';
import { userMessage } from '../../../../../src/core/chat/messages.js';
import { DecisionModelChatModelRouter } from '../../../../../src/core/decision/decision-model-chat-model-router.js';
import {
  FallbackStrategy,
  type ChoiceAnswer,
} from '../../../../../src/core/decision/decision-model.js';
import {
  InvalidDecisionResponseException,
  RoutingException,
} from '../../../../../src/core/errors/exceptions.js';
import { fakeDecisionModel, fakeLogger, recordingObserver, routingRequest } from './fixtures.js';

const question = [userMessage('Refactor this function')];

function routeWith(
  answer: ChoiceAnswer,
  options: ConstructorParameters<typeof DecisionModelChatModelRouter>[1] = {},
  extra: Parameters<typeof routingRequest>[1] = {},
) {
  const router = new DecisionModelChatModelRouter(fakeDecisionModel(answer), {
    logger: fakeLogger(),
    ...options,
  });
  return router.route(routingRequest(question, extra));
}

describe('2.3.7 probabilities', () => {
  it('without probabilities, picks the route that owns value', async () => {
    expect((await routeWith({ value: 'complex#2' })).routeName).toBe('complex');
    expect((await routeWith({ value: 'creative' })).routeName).toBe('creative');
    const plain = await routeWith({ value: 'simple' });
    expect(plain.routeName).toBe('simple');
    expect(plain.isDefaultRoute).toBe(false);
    expect(plain.probabilities).toBeUndefined();
  });

  it("sums each route's option probabilities, the highest wins, and attaches the sums", async () => {
    const result = await routeWith({
      value: 'simple',
      probabilities: { simple: 0.4, 'complex#1': 0.25, 'complex#2': 0.25, creative: 0.1 },
    });
    expect(result.routeName).toBe('complex');
    expect(result.probabilities).toEqual({ simple: 0.4, complex: 0.5, creative: 0.1 });
  });

  it('ignores value when probabilities are given, even a value that is not offered', async () => {
    const result = await routeWith({
      value: 'no-such-option',
      probabilities: { simple: 0.7, 'complex#1': 0.3 },
    });
    expect(result.routeName).toBe('simple');
    expect(result.probabilities).toEqual({ simple: 0.7, complex: 0.3, creative: 0 });
  });

  it('gives a tie to the earlier route', async () => {
    const tie = await routeWith({
      value: 'creative',
      probabilities: { creative: 0.5, 'complex#1': 0.5 },
    });
    expect(tie.routeName).toBe('complex');
  });

  it.each<[string, ChoiceAnswer]>([
    ['a value', { value: 'medium' }],
    ['a probability key', { value: 'simple', probabilities: { simple: 0.5, medium: 0.5 } }],
    ['an inherited object key', { value: 'simple', probabilities: { constructor: 1 } }],
    ['a route name whose options are numbered', { value: 'complex' }],
  ])('rejects %s that is not an offered option as a decision model failure', async (_, answer) => {
    const failing = routeWith(answer, { fallbackStrategy: FallbackStrategy.FAIL });
    await expect(failing).rejects.toBeInstanceOf(InvalidDecisionResponseException);
    await expect(failing).rejects.toThrow('not an offered option');

    const { events, observer } = recordingObserver();
    const fallback = await routeWith(answer, {}, { observer, defaultRoute: 'simple' });
    expect(fallback.routeName).toBe('simple');
    expect(events).toEqual([
      {
        type: 'decision-failed',
        error: { name: 'InvalidDecisionResponseException', message: expect.any(String) },
        fallback: 'default-route',
      },
    ]);
  });

  it.each<[string, unknown]>([
    ['no answer', null],
    ['a non-numeric probability', { value: 'simple', probabilities: { simple: 'high' } }],
  ])('rejects %s as an invalid response', async (_, answer) => {
    await expect(
      routeWith(answer as ChoiceAnswer, { fallbackStrategy: FallbackStrategy.FAIL }),
    ).rejects.toBeInstanceOf(InvalidDecisionResponseException);
  });
});

describe('2.3.8 minProbability', () => {
  it.each([FallbackStrategy.DEFAULT_ROUTE, FallbackStrategy.FAIL])(
    'with no probabilities reported, throws a RoutingException under %s',
    async (fallbackStrategy) => {
      const logger = fakeLogger();
      const routing = routeWith(
        { value: 'complex#1' },
        { minProbability: 0.5, fallbackStrategy, logger },
      );
      await expect(routing).rejects.toBeInstanceOf(RoutingException);
      await expect(routing).rejects.toThrow('reported no probabilities');
      expect(logger.warn).not.toHaveBeenCalled();
    },
  );

  it('uses the default route when the best score is below minProbability, keeping the scores', async () => {
    const result = await routeWith(
      { value: 'complex#1', probabilities: { simple: 0.2, 'complex#1': 0.3, creative: 0.1 } },
      { minProbability: 0.31 },
      { defaultRoute: 'creative' },
    );
    expect(result.routeName).toBe('creative');
    expect(result.probabilities).toEqual({ simple: 0.2, complex: 0.3, creative: 0.1 });

    const unnamed = await routeWith(
      { value: 'simple', probabilities: { simple: 0.49 } },
      { minProbability: 0.5 },
    );
    expect(unnamed.isDefaultRoute).toBe(true);
    expect(unnamed.probabilities).toEqual({ simple: 0.49, complex: 0, creative: 0 });
  });

  it('selects the best route when its score equals minProbability, summed floats included', async () => {
    const equal = await routeWith(
      { value: 'simple', probabilities: { simple: 0.4, creative: 0.6 } },
      { minProbability: 0.6 },
      { defaultRoute: 'simple' },
    );
    expect(equal.routeName).toBe('creative');

    // 0.7 + 0.1 is 0.7999999999999999 in floating point: equal to 0.8 for this purpose.
    const summed = await routeWith(
      { value: 'simple', probabilities: { 'complex#1': 0.7, 'complex#2': 0.1, simple: 0.05 } },
      { minProbability: 0.8 },
      { defaultRoute: 'simple' },
    );
    expect(summed.routeName).toBe('complex');
  });
});
