import { describe, expect, it, jest } from '@jest/globals';
import { userMessage } from '../../../../../src/core/chat/messages.js';
import { DecisionModelChatModelRouter } from '../../../../../src/core/decision/decision-model-chat-model-router.js';
import type {
  ChoiceOption,
  ChoiceQuestion,
} from '../../../../../src/core/decision/decision-model.js';
import { EmbeddedVectorDecisionModel } from '../../../../../src/embedded/embedded-vector-decision-model.js';
import type { OptionClassifier } from '../../../../../src/embedded/option-classifier.js';
import { RoutingChatModel } from '../../../../../src/core/routing/routing-chat-model.js';
import { fakeModel } from '../../routing/fakes.js';
import { fakeDecisionModel, fakeLogger, routingRequest, ROUTES } from './fixtures.js';

/** Counts the classifier fits (what the first decision on a question costs). */
class CountingModel extends EmbeddedVectorDecisionModel {
  fits = 0;
  protected override fit(options: readonly ChoiceOption[]): OptionClassifier {
    this.fits++;
    return super.fit(options);
  }
}

const routes = [
  { name: 'code', descriptions: ['Writing and fixing code'], examples: ['fix this bug'] },
  { name: 'cooking', descriptions: ['Recipes and cooking'], examples: ['a pasta recipe'] },
];

describe('prepare at construction', () => {
  it('the embedded model fits its routes when the routing model is built, not on the first decision', async () => {
    const decisionModel = new CountingModel();
    const router = new DecisionModelChatModelRouter(decisionModel, { logger: fakeLogger() });
    const model = new RoutingChatModel({
      routes: routes.map((route) => ({ ...route, model: fakeModel(route.name) })),
      router,
      defaultRoute: 'code',
    });
    expect(decisionModel.fits).toBe(1);
    const result = await router.route({
      chatRequest: { messages: [userMessage('how long do I boil an egg')] },
      routes: model.routes(),
      attributes: {},
    });
    expect(result.routeName).toBe('cooking');
    expect(decisionModel.fits).toBe(1);
  });

  it('passes the question the decisions will ask, with every route as an option', () => {
    const prepare = jest.fn<(question: ChoiceQuestion) => void>();
    const router = new DecisionModelChatModelRouter(
      { ...fakeDecisionModel(), prepare },
      { question: 'Which one?', logger: fakeLogger() },
    );
    router.validate(ROUTES);
    expect(prepare).toHaveBeenCalledTimes(1);
    const question = prepare.mock.calls[0]![0];
    expect(question.text).toBe('Which one?');
    // Each description of a route is an option of its own (choice-options.ts).
    expect(question.options.map((option) => option.name)).toEqual([
      'simple',
      'complex#1',
      'complex#2',
      'creative',
    ]);
  });

  it('a model without prepare keeps working; one whose prepare throws is warned about', async () => {
    const plain = fakeDecisionModel({ value: 'creative' });
    const router = new DecisionModelChatModelRouter(plain, { logger: fakeLogger() });
    router.validate(ROUTES);
    expect((await router.route(routingRequest([userMessage('hi')]))).routeName).toBe('creative');

    const logger = fakeLogger();
    const failing = new DecisionModelChatModelRouter(
      {
        ...fakeDecisionModel({ value: 'simple' }),
        prepare: () => {
          throw new Error('no vectors');
        },
      },
      { logger },
    );
    expect(() => failing.validate(ROUTES)).not.toThrow();
    expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining('no vectors'));
    expect((await failing.route(routingRequest([userMessage('hi')]))).routeName).toBe('simple');
  });
});
