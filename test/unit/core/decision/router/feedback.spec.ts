import { describe, it, expect, jest } from '@jest/globals';
import { userMessage } from '../../../../../src/core/chat/messages.js';
import { DecisionModelChatModelRouter } from '../../../../../src/core/decision/decision-model-chat-model-router.js';
import type {
  ChoiceAnswer,
  DecisionRequest,
  LearnRequest,
} from '../../../../../src/core/decision/decision-model.js';
import {
  DecisionFeedbackException,
  learnedText,
} from '../../../../../src/core/decision/decision-feedback.js';
import { RoutingException } from '../../../../../src/core/errors/exceptions.js';
import {
  installRoutingTracer,
  type RoutingTracer,
} from '../../../../../src/core/observability/tracing.js';
import { InMemoryRouteStateStore } from '../../../../../src/core/state/in-memory-route-state-store.js';
import { fakeLogger, routingRequest } from './fixtures.js';

function learningModel(answer: ChoiceAnswer = { value: 'simple' }) {
  return {
    decide: jest.fn<(request: DecisionRequest) => Promise<ChoiceAnswer>>(async () => answer),
    learn: jest.fn<(request: LearnRequest) => void>(),
  };
}

function setup(options: ConstructorParameters<typeof DecisionModelChatModelRouter>[1] = {}) {
  let now = 1_000;
  const model = learningModel();
  const router = new DecisionModelChatModelRouter(model, {
    logger: fakeLogger(),
    clock: () => now,
    ...options,
  });
  router.validate(routingRequest([]).routes);
  const decide = async (text = 'hello there', caller?: string) =>
    router.route(
      routingRequest(
        [userMessage(text)],
        caller ? { attributes: { model_router_caller: caller } } : {},
      ),
    );
  return { model, router, decide, advance: (ms: number) => (now += ms) };
}

describe('2.12 decision ids', () => {
  it('gives every decision a distinct, unguessable id', async () => {
    const { decide } = setup();
    const ids = new Set<string>();
    for (let i = 0; i < 20; i++) ids.add((await decide()).decisionId!);
    expect(ids.size).toBe(20);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it('a single route is no decision: no id', async () => {
    const { router } = setup();
    const result = await router.route({
      ...routingRequest([userMessage('x')]),
      routes: [{ name: 'only', descriptions: [] }],
    });
    expect(result.decisionId).toBeUndefined();
  });
});

describe('2.12 feedback', () => {
  it('passes the input, the question and the route to learn', async () => {
    const { model, router, decide } = setup();
    const { decisionId } = await decide('Refactor this class please');
    await router.feedback(decisionId!, 'complex');
    expect(model.learn).toHaveBeenCalledTimes(1);
    const learned = model.learn.mock.calls[0]![0];
    expect(learned.route).toBe('complex#1');
    expect(JSON.stringify(learned.input)).toContain('Refactor this class please');
    expect(learned.question.options.map((o) => o.name)).toContain('complex#2');
    expect(router.learnedCounts()).toEqual({
      simple: 0,
      'complex#1': 1,
      'complex#2': 0,
      creative: 0,
    });
  });

  it('unknown and expired ids are a RoutingException; the window uses the clock', async () => {
    const { router, decide, advance } = setup({ decisions: { windowMs: 60_000 } });
    await expect(router.feedback('nope', 'simple')).rejects.toThrow(RoutingException);
    const { decisionId } = await decide();
    advance(59_999);
    expect(router.hasDecision(decisionId!)).toBe(true);
    advance(1);
    expect(router.hasDecision(decisionId!)).toBe(false);
    await expect(router.feedback(decisionId!, 'simple')).rejects.toThrow(/Unknown or expired/);
  });

  it('keeps at most maxRecords decisions, the oldest out', async () => {
    const { router, decide } = setup({ decisions: { maxRecords: 3 } });
    const first = (await decide()).decisionId!;
    for (let i = 0; i < 3; i++) await decide();
    expect(router.hasDecision(first)).toBe(false);
  });

  it('an unknown route is refused by name, and nothing is learned', async () => {
    const { model, router, decide } = setup();
    const { decisionId } = await decide();
    const refusal = router.feedback(decisionId!, 'nonsense');
    await expect(refusal).rejects.toThrow(DecisionFeedbackException);
    await expect(router.feedback(decisionId!, 'nonsense')).rejects.toThrow(
      /Unknown route 'nonsense'.*simple, complex, creative/,
    );
    expect(model.learn).not.toHaveBeenCalled();
  });

  it('the same feedback twice is learned once; a different one is a conflict', async () => {
    const { model, router, decide } = setup();
    const { decisionId } = await decide();
    await Promise.all([
      router.feedback(decisionId!, 'creative'),
      router.feedback(decisionId!, 'creative'),
    ]);
    await router.feedback(decisionId!, 'creative');
    expect(model.learn).toHaveBeenCalledTimes(1);
    await expect(router.feedback(decisionId!, 'simple')).rejects.toMatchObject({
      reason: 'conflict',
    });
  });

  it('only the caller that made the call may give feedback (or a trusted one)', async () => {
    const { model, router, decide } = setup();
    const { decisionId } = await decide('hi', 'tenant-a');
    await expect(
      router.feedback(decisionId!, 'complex', { caller: 'tenant-b' }),
    ).rejects.toMatchObject({
      reason: 'unknown-decision',
    });
    await router.feedback(decisionId!, 'complex', { caller: 'admin', trusted: true });
    expect(model.learn).toHaveBeenCalledTimes(1);
  });

  it("a client key's feedback is learned in its scope; trusted feedback is shared", async () => {
    const { model, router, decide } = setup();
    const first = await decide('hi', 'tenant-a');
    expect(model.decide.mock.calls[0]![0].scope).toBe('tenant-a');
    await router.feedback(first.decisionId!, 'creative', { caller: 'tenant-a' });
    expect(model.learn.mock.calls[0]![0].scope).toBe('tenant-a');
    const second = await decide('hello', 'tenant-a');
    await router.feedback(second.decisionId!, 'creative', { caller: 'admin', trusted: true });
    expect(model.learn.mock.calls[1]![0]).not.toHaveProperty('scope');
    const third = await decide('hey');
    expect(model.decide.mock.calls[2]![0]).not.toHaveProperty('scope');
    await router.feedback(third.decisionId!, 'creative');
    expect(model.learn.mock.calls[2]![0]).not.toHaveProperty('scope');
    expect(router.learnedExamples().creative!.map((e) => e.scope)).toEqual([
      'tenant-a',
      undefined,
      undefined,
    ]);
  });

  it("a replica learns a caller's scoped examples from the store, still scoped", async () => {
    const store = new InMemoryRouteStateStore();
    const one = setup();
    one.router.bindRouteState({ store, scope: 'desk' });
    const { decisionId } = await one.decide('Refactor this', 'tenant-a');
    await one.router.feedback(decisionId!, 'creative', { caller: 'tenant-a' });
    const two = setup();
    two.router.bindRouteState({ store, scope: 'desk' });
    await two.router.syncLearned();
    expect(two.model.learn).toHaveBeenCalledTimes(1);
    expect(two.model.learn.mock.calls[0]![0]).toMatchObject({
      route: 'creative',
      scope: 'tenant-a',
    });
  });

  it("one caller may hold only its share of a route's examples", async () => {
    const { router, decide } = setup({ learning: { maxPerRoute: 10, maxSourceShare: 0.2 } });
    for (let i = 0; i < 2; i++) {
      const { decisionId } = await decide(`m${i}`, 'tenant-a');
      await router.feedback(decisionId!, 'creative', { caller: 'tenant-a' });
    }
    const { decisionId } = await decide('m3', 'tenant-a');
    await expect(
      router.feedback(decisionId!, 'creative', { caller: 'tenant-a' }),
    ).rejects.toMatchObject({
      reason: 'share-exceeded',
    });
    // another route, and another caller, are not held back
    await router.feedback(decisionId!, 'simple', { caller: 'tenant-a' });
    const other = await decide('m4', 'tenant-b');
    await router.feedback(other.decisionId!, 'creative', { caller: 'tenant-b' });
    expect(router.learnedCounts()).toMatchObject({ creative: 3, simple: 1 });
  });

  it("quality 'bad' without a route moves the input to the next more capable route", async () => {
    const { model, router, decide } = setup({ capabilityOrder: ['simple', 'creative', 'complex'] });
    const { decisionId } = await decide();
    await router.feedback(decisionId!, undefined, { quality: 'bad' });
    expect(model.learn.mock.calls[0]![0].route).toBe('creative');
    const plain = setup();
    const second = await plain.decide();
    await expect(
      plain.router.feedback(second.decisionId!, undefined, { quality: 'bad' }),
    ).rejects.toThrow(/capabilityOrder/);
  });

  it('learned examples are kept in the bound store, bounded per route', async () => {
    const store = new InMemoryRouteStateStore();
    const { router, decide } = setup({ learning: { maxPerRoute: 3 } });
    router.bindRouteState({ store, scope: 'desk' });
    for (let i = 0; i < 5; i++) {
      const { decisionId } = await decide(`message ${i}`);
      await router.feedback(decisionId!, 'creative');
    }
    const stored = await store.readList('learned:{desk}:creative');
    expect(stored.map((raw) => learnedText(JSON.parse(raw).input))).toEqual([
      'message 2',
      'message 3',
      'message 4',
    ]);
    expect(router.learnedExamples().creative!.map((e) => learnedText(e.input))).toEqual([
      'message 2',
      'message 3',
      'message 4',
    ]);
  });
});

function withTeacher(first: ChoiceAnswer, teachBelow = 0.6) {
  const model = learningModel(first);
  const teacher = learningModel({ value: 'creative' });
  const router = new DecisionModelChatModelRouter(model, {
    logger: fakeLogger(),
    teacher,
    teachBelow,
  });
  router.validate(routingRequest([]).routes);
  return { model, teacher, router };
}

describe('2.15 teacher', () => {
  it('is asked below teachBelow; its answer routes the call and is learned', async () => {
    const { model, teacher, router } = withTeacher({
      value: 'simple',
      probabilities: { simple: 0.5, 'complex#1': 0.3, creative: 0.2 },
    });
    const result = await router.route(routingRequest([userMessage('write me a limerick')]));
    expect(result.routeName).toBe('creative');
    expect(teacher.decide).toHaveBeenCalledTimes(1);
    expect(model.learn).toHaveBeenCalledWith(expect.objectContaining({ route: 'creative' }));
    expect(router.teacherStats()).toMatchObject({ decisions: 1, taught: 1, share: 1 });
  });

  it('is not asked at or above teachBelow', async () => {
    const { teacher, router } = withTeacher({
      value: 'simple',
      probabilities: { simple: 0.6, 'complex#1': 0.3, creative: 0.1 },
    });
    const result = await router.route(routingRequest([userMessage('hello')]));
    expect(result.routeName).toBe('simple');
    expect(teacher.decide).not.toHaveBeenCalled();
    expect(router.teacherStats()).toMatchObject({ decisions: 1, taught: 0, share: 0 });
  });

  it("a failing teacher leaves the first model's answer", async () => {
    const model = learningModel({
      value: 'simple',
      probabilities: { simple: 0.4, creative: 0.35, 'complex#1': 0.25 },
    });
    const logger = fakeLogger();
    const teacher = { decide: async () => Promise.reject(new Error('judge down')) };
    const router = new DecisionModelChatModelRouter(model, { logger, teacher, teachBelow: 0.9 });
    expect((await router.route(routingRequest([userMessage('x')]))).routeName).toBe('simple');
    expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining('judge down'));
  });

  it('teachBelow is checked at construction', () => {
    const teacher = learningModel();
    expect(
      () => new DecisionModelChatModelRouter(learningModel(), { teacher, teachBelow: 2 }),
    ).toThrow(/teachBelow/);
  });

  it("is asked inside a decision span of its own ('teacher') when a tracer records", async () => {
    const spans: string[] = [];
    installRoutingTracer({
      decision: async (name, work) => {
        spans.push(name);
        return work();
      },
    } as Partial<RoutingTracer> as RoutingTracer);
    try {
      const unsure = withTeacher({
        value: 'simple',
        probabilities: { simple: 0.5, 'complex#1': 0.3, creative: 0.2 },
      });
      await unsure.router.route(routingRequest([userMessage('write me a limerick')]));
      const sure = withTeacher({
        value: 'simple',
        probabilities: { simple: 0.9, 'complex#1': 0.05, creative: 0.05 },
      });
      await sure.router.route(routingRequest([userMessage('hello')]));
    } finally {
      installRoutingTracer(undefined);
    }
    expect(spans).toEqual(['teacher']);
  });

  it('is asked for at most maxTeacherShare of the last 100 decisions', async () => {
    const model = learningModel({
      value: 'simple',
      probabilities: { simple: 0.4, creative: 0.35, 'complex#1': 0.25 },
    });
    const teacher = learningModel({ value: 'creative' });
    const router = new DecisionModelChatModelRouter(model, {
      logger: fakeLogger(),
      teacher,
      maxTeacherShare: 0.1,
    });
    router.validate(routingRequest([]).routes);
    const routes: (string | undefined)[] = [];
    for (let i = 0; i < 100; i++) {
      routes.push((await router.route(routingRequest([userMessage(`m${i}`)]))).routeName);
    }
    expect(teacher.decide).toHaveBeenCalledTimes(10);
    expect(routes.filter((r) => r === 'creative')).toHaveLength(10);
    expect(router.teacherStats()).toMatchObject({
      decisions: 100,
      taught: 10,
      deferred: 90,
      recentShare: 0.1,
      maxShare: 0.1,
    });
    expect(
      () => new DecisionModelChatModelRouter(learningModel(), { teacher, maxTeacherShare: 0 }),
    ).toThrow(/^maxTeacherShare /);
  });
});
