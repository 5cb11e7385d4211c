import { describe, expect, it } from '@jest/globals';
import type { ChoiceQuestion } from '../../../src/core/decision/decision-model.js';
import { EmbeddedVectorDecisionModel } from '../../../src/embedded/embedded-vector-decision-model.js';
import { userMessage } from '../../../src/core/chat/messages.js';
import { DecisionModelChatModelRouter } from '../../../src/core/decision/decision-model-chat-model-router.js';
import { InMemoryRouteStateStore } from '../../../src/core/state/in-memory-route-state-store.js';
import type { ChatModelRoute } from '../../../src/core/routing/chat-model-route.js';

const question: ChoiceQuestion = {
  text: 'Which route?',
  options: [
    { name: 'orders', description: 'Order status and delivery' },
    { name: 'accounts', description: 'Website account and loyalty card' },
  ],
};

describe('EmbeddedVectorDecisionModel.learn', () => {
  const model = new EmbeddedVectorDecisionModel();

  it('learned examples move a decision to their option', async () => {
    const input = 'the glasshouse voucher code from my birthday email is rejected';
    const before = await model.decide({ input, question });
    const target = before.value === 'orders' ? 'accounts' : 'orders';
    model.learn({ input, question, route: target });
    model.learn({ input: 'voucher code not accepted at the till', question, route: target });
    const after = await model.decide({ input, question });
    expect(after.value).toBe(target);
    const paraphrase = 'my birthday voucher code gets rejected';
    const untaught = await new EmbeddedVectorDecisionModel().decide({
      input: paraphrase,
      question,
    });
    const taught = await model.decide({ input: paraphrase, question });
    expect(taught.probabilities![target]!).toBeGreaterThan(untaught.probabilities![target]!);
  });

  it('a conversation is learned from all of its turns', async () => {
    const fresh = new EmbeddedVectorDecisionModel();
    fresh.learn({
      input: {
        messages: [
          { role: 'user', text: 'the lawnmower never arrived' },
          { role: 'assistant', text: 'Shall I chase the courier?' },
          { role: 'user', text: 'yes please' },
        ],
      },
      question,
      route: 'orders',
    });
    const answer = await fresh.decide({
      input: {
        messages: [
          { role: 'user', text: 'my lawnmower has not arrived' },
          { role: 'assistant', text: 'Shall I chase the courier?' },
          { role: 'user', text: 'yes please' },
        ],
      },
      question,
    });
    expect(answer.value).toBe('orders');
  });

  it('keeps at most maxLearnedPerOption per option, and refuses an unknown option', async () => {
    const bounded = new EmbeddedVectorDecisionModel({ maxLearnedPerOption: 2 });
    const twoOnly = new EmbeddedVectorDecisionModel({ maxLearnedPerOption: 2 });
    for (const text of ['zebra stripes', 'kiwi fruit', 'mango juice']) {
      bounded.learn({ input: text, question, route: 'accounts' });
    }
    for (const text of ['kiwi fruit', 'mango juice']) {
      twoOnly.learn({ input: text, question, route: 'accounts' });
    }
    // the oldest went: both models now hold the same two examples
    const zebra = { input: 'zebra stripes', question };
    expect((await bounded.decide(zebra)).probabilities).toEqual(
      (await twoOnly.decide(zebra)).probabilities,
    );
    expect(() => bounded.learn({ input: 'x', question, route: 'nope' })).toThrow(/nope/);
    expect(() => new EmbeddedVectorDecisionModel({ maxLearnedPerOption: 0 })).toThrow(
      /maxLearnedPerOption/,
    );
    expect(() => new EmbeddedVectorDecisionModel({ learnedScoring: { blendPenalty: 0 } })).toThrow(
      /learnedScoring\.blendPenalty/,
    );
    expect(() => new EmbeddedVectorDecisionModel({ learnedScoring: { words: -1 } })).toThrow(
      /learnedScoring\.words/,
    );
    expect(
      () => new EmbeddedVectorDecisionModel({ learnedScoring: { biasPenalty: Infinity } }),
    ).not.toThrow();
  });

  it('an options array changed in place is another question: its examples stay behind', async () => {
    const options = [...question.options];
    const asked: ChoiceQuestion = { text: question.text, options };
    const input = 'the glasshouse voucher code from my birthday email is rejected';
    const learner = new EmbeddedVectorDecisionModel();
    learner.learn({ input, question: asked, route: 'accounts' });
    const untaught = new EmbeddedVectorDecisionModel();
    expect((await learner.decide({ input, question: asked })).probabilities).not.toEqual(
      (await untaught.decide({ input, question: asked })).probabilities,
    );
    options[1] = { name: 'accounts', description: 'Loyalty card points' };
    expect((await learner.decide({ input, question: asked })).probabilities).toEqual(
      (await untaught.decide({ input, question: asked })).probabilities,
    );
  });

  it("an option's examples changed in place make another question too", async () => {
    const examples = ['where is my parcel'];
    const asked: ChoiceQuestion = {
      text: question.text,
      options: [{ ...question.options[0]!, examples }, question.options[1]!],
    };
    const input = 'the glasshouse voucher code from my birthday email is rejected';
    const learner = new EmbeddedVectorDecisionModel();
    learner.learn({ input, question: asked, route: 'accounts' });
    const untaught = new EmbeddedVectorDecisionModel();
    expect((await learner.decide({ input, question: asked })).probabilities).not.toEqual(
      (await untaught.decide({ input, question: asked })).probabilities,
    );
    examples.push('has my order shipped yet');
    expect((await learner.decide({ input, question: asked })).probabilities).toEqual(
      (await untaught.decide({ input, question: asked })).probabilities,
    );
    // what is learned now is the changed question's
    learner.learn({ input, question: asked, route: 'accounts' });
    expect((await learner.decide({ input, question: asked })).probabilities).not.toEqual(
      (await untaught.decide({ input, question: asked })).probabilities,
    );
  });
});

describe('EmbeddedVectorDecisionModel.learn with a caller scope', () => {
  const input = 'the glasshouse voucher code from my birthday email is rejected';
  const taught = ['voucher code not accepted at the till', input];
  const targetOf = async () => {
    const before = await new EmbeddedVectorDecisionModel().decide({ input, question });
    return before.value === 'orders' ? 'accounts' : 'orders';
  };

  it("a scope's examples move its own decisions only; shared ones move everyone's", async () => {
    const target = await targetOf();
    const model = new EmbeddedVectorDecisionModel();
    const untaught = await new EmbeddedVectorDecisionModel().decide({ input, question });
    for (const text of taught) model.learn({ input: text, question, route: target, scope: 'a' });
    expect((await model.decide({ input, question, scope: 'a' })).value).toBe(target);
    expect((await model.decide({ input, question, scope: 'b' })).probabilities).toEqual(
      untaught.probabilities,
    );
    expect((await model.decide({ input, question })).probabilities).toEqual(untaught.probabilities);
    for (const text of taught) model.learn({ input: text, question, route: target });
    expect((await model.decide({ input, question, scope: 'b' })).value).toBe(target);
    expect((await model.decide({ input, question })).value).toBe(target);
    // shared and own examples together
    expect((await model.decide({ input, question, scope: 'a' })).value).toBe(target);
  });

  it('keeps maxLearnedPerScope per option and maxLearnedScopes scopes, least used out', async () => {
    const bounded = new EmbeddedVectorDecisionModel({ maxLearnedPerScope: 2 });
    const twoOnly = new EmbeddedVectorDecisionModel({ maxLearnedPerScope: 2 });
    for (const text of ['zebra stripes', 'kiwi fruit', 'mango juice']) {
      bounded.learn({ input: text, question, route: 'accounts', scope: 'a' });
    }
    for (const text of ['kiwi fruit', 'mango juice']) {
      twoOnly.learn({ input: text, question, route: 'accounts', scope: 'a' });
    }
    const zebra = { input: 'zebra stripes', question, scope: 'a' };
    expect((await bounded.decide(zebra)).probabilities).toEqual(
      (await twoOnly.decide(zebra)).probabilities,
    );

    const target = await targetOf();
    const fresh = new EmbeddedVectorDecisionModel();
    const oneScope = new EmbeddedVectorDecisionModel({ maxLearnedScopes: 1 });
    for (const text of taught) oneScope.learn({ input: text, question, route: target, scope: 'a' });
    expect((await oneScope.decide({ input, question, scope: 'a' })).value).toBe(target);
    oneScope.learn({ input: 'kiwi fruit', question, route: 'orders', scope: 'b' });
    // scope a went out when b came in: a decides as if never taught
    expect((await oneScope.decide({ input, question, scope: 'a' })).probabilities).toEqual(
      (await fresh.decide({ input, question })).probabilities,
    );
    expect(() => new EmbeddedVectorDecisionModel({ maxLearnedScopes: 0 })).toThrow(
      /maxLearnedScopes/,
    );
  });
});

describe('scoped feedback across replicas', () => {
  const routes: ChatModelRoute[] = question.options.map((o) => ({
    name: o.name,
    descriptions: [o.description],
  }));
  const replica = (store: InMemoryRouteStateStore) => {
    const router = new DecisionModelChatModelRouter(new EmbeddedVectorDecisionModel(), {
      logger: { warn: () => undefined },
    });
    router.validate(routes);
    router.bindRouteState({ store, scope: 'desk' });
    return router;
  };
  const route = (router: DecisionModelChatModelRouter, text: string, caller: string) =>
    router.route({
      chatRequest: { messages: [userMessage(text)] },
      routes,
      attributes: { model_router_caller: caller },
    });

  it("a second replica routes caller a's next call by a's feedback, caller b's not", async () => {
    const store = new InMemoryRouteStateStore();
    const one = replica(store);
    const text = 'the glasshouse voucher code from my birthday email is rejected';
    const first = await route(one, text, 'a');
    const other = first.routeName === 'orders' ? 'accounts' : 'orders';
    await one.feedback(first.decisionId!, other, { caller: 'a' });
    const two = replica(store);
    await two.syncLearned();
    expect((await route(two, text, 'a')).routeName).toBe(other);
    expect((await route(two, text, 'b')).routeName).toBe(first.routeName);
  });
});
