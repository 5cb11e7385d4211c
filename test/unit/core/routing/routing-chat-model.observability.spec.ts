import { describe, expect, it, jest } from '@jest/globals';
import { userMessage } from '../../../../src/core/chat/messages.js';
import type {
  InspectableRouting,
  ModelStatus,
  RouteStateBinding,
} from '../../../../src/core/inspection/inspection.js';
import { isInspectableRouting } from '../../../../src/core/inspection/inspection.js';
import type { RoutingEvent } from '../../../../src/core/observability/routing-event.js';
import { InMemoryRouteStateStore } from '../../../../src/core/state/in-memory-route-state-store.js';
import { ChatModelRoutingResult } from '../../../../src/core/routing/chat-model-routing-result.js';
import { RoutingChatModel } from '../../../../src/core/routing/routing-chat-model.js';
import { fakeModel, routeTo } from './fakes.js';

/** A model group as health sees it: a ChatModel that reports its models' state. */
function inspectableGroup(statuses: ModelStatus[]) {
  const group = {
    ...fakeModel('group'),
    inspectModels: jest.fn<() => ModelStatus[]>(() => statuses),
    bindRouteState: jest.fn<(binding: RouteStateBinding) => void>(),
  };
  return group satisfies InspectableRouting;
}

describe('route-selected events', () => {
  it('reports the chosen route, whether it is the default, and the probabilities', async () => {
    const model = new RoutingChatModel({
      routes: [
        { name: 'simple', model: fakeModel('simple') },
        { name: 'complex', model: fakeModel('complex') },
      ],
      router: () =>
        ChatModelRoutingResult.defaultRoute({ probabilities: { simple: 0.4, complex: 0.35 } }),
      defaultRoute: 'complex',
    });
    const observer = jest.fn<(event: RoutingEvent) => void>();
    await model.chat({ messages: [userMessage('hi')] }, { observer });
    expect(observer).toHaveBeenCalledTimes(1);
    expect(observer).toHaveBeenCalledWith({
      type: 'route-selected',
      route: 'complex',
      isDefaultRoute: true,
      sticky: false,
      probabilities: { simple: 0.4, complex: 0.35 },
      // a model serving the route alone, registered under no name: the route's name
      model: 'complex',
    });
  });

  it('omits probabilities when the router has none', async () => {
    const model = new RoutingChatModel({
      routes: [{ name: 'simple', model: fakeModel('simple') }],
      router: routeTo('simple'),
      defaultRoute: 'simple',
    });
    const observer = jest.fn<(event: RoutingEvent) => void>();
    await model.chat({ messages: [userMessage('hi')] }, { observer });
    expect(observer.mock.calls[0]![0]).toStrictEqual({
      type: 'route-selected',
      route: 'simple',
      isDefaultRoute: false,
      sticky: false,
      model: 'simple',
    });
  });

  it('a failing observer does not change the outcome', async () => {
    const simple = fakeModel('simple');
    const model = new RoutingChatModel({
      routes: [{ name: 'simple', model: simple }],
      router: routeTo('simple'),
      defaultRoute: 'simple',
    });
    const observer = jest.fn<(event: RoutingEvent) => void>(() => {
      throw new Error('observer bug');
    });
    const response = await model.chat({ messages: [userMessage('hi')] }, { observer });
    expect(response.aiMessage.text).toBe('simple');
    expect(observer).toHaveBeenCalledTimes(1);
  });

  it('emits nothing when routing fails', async () => {
    const model = new RoutingChatModel({
      routes: [{ name: 'simple', model: fakeModel('simple') }],
      router: routeTo('medium'),
      defaultRoute: 'simple',
    });
    const observer = jest.fn<(event: RoutingEvent) => void>();
    await expect(model.chat({ messages: [userMessage('hi')] }, { observer })).rejects.toThrow(
      "unknown route 'medium'",
    );
    expect(observer).not.toHaveBeenCalled();
  });
});

describe('inspection seam', () => {
  it('is itself inspectable', () => {
    const model = new RoutingChatModel({
      routes: [{ name: 'simple', model: fakeModel('simple') }],
      router: routeTo('simple'),
      defaultRoute: 'simple',
    });
    expect(isInspectableRouting(model)).toBe(true);
    expect(model.inspectModels()).toEqual([
      { model: 'simple', route: 'simple', state: 'available', failures: 0 },
    ]);
  });

  it("lists route models' statuses with the route name; a plain model as always available", () => {
    const cheap = inspectableGroup([
      { model: 'gpt-small', state: 'available', failures: 0 },
      { model: 'llama', state: 'cooldown', cooldownUntil: 5_000, failures: 2 },
    ]);
    const smart = inspectableGroup([{ model: 'gpt-large', state: 'half-open', failures: 1 }]);
    const model = new RoutingChatModel({
      routes: [
        { name: 'simple', model: cheap },
        { name: 'plain', model: fakeModel('plain') },
        { name: 'complex', model: smart },
      ],
      router: routeTo('simple'),
      defaultRoute: 'simple',
    });
    expect(model.inspectModels()).toEqual([
      { model: 'gpt-small', route: 'simple', state: 'available', failures: 0 },
      { model: 'llama', route: 'simple', state: 'cooldown', cooldownUntil: 5_000, failures: 2 },
      { model: 'plain', route: 'plain', state: 'available', failures: 0 },
      { model: 'gpt-large', route: 'complex', state: 'half-open', failures: 1 },
    ]);
  });

  it('names a plain route model by its registered name (bindRouteState), through nesting', async () => {
    const claude = fakeModel('claude-sonnet-4-6');
    const inner = new RoutingChatModel({
      routes: [{ name: 'deep', model: claude }],
      router: routeTo('deep'),
      defaultRoute: 'deep',
    });
    const outer = new RoutingChatModel({
      routes: [
        { name: 'complex', model: claude },
        { name: 'nested', model: inner },
      ],
      router: routeTo('complex'),
      defaultRoute: 'complex',
    });
    const modelNames = new Map([[claude, 'claude']]);
    outer.bindRouteState({ store: new InMemoryRouteStateStore(), scope: 'default', modelNames });

    expect(outer.inspectModels()).toEqual([
      { model: 'claude', route: 'complex', state: 'available', failures: 0 },
      { model: 'claude', route: 'deep', state: 'available', failures: 0 },
    ]);
    const observer = jest.fn<(event: RoutingEvent) => void>();
    await outer.chat({ messages: [userMessage('hi')] }, { observer });
    expect(observer).toHaveBeenCalledWith(
      expect.objectContaining({ route: 'complex', model: 'claude' }),
    );
  });

  it('keeps the inner route of a nested RoutingChatModel (the group the model belongs to)', () => {
    const fastGroup = inspectableGroup([{ model: 'm1', state: 'available', failures: 0 }]);
    const inner = new RoutingChatModel({
      routes: [{ name: 'fast', model: fastGroup }],
      router: routeTo('fast'),
      defaultRoute: 'fast',
    });
    const outer = new RoutingChatModel({
      routes: [{ name: 'complex', model: inner }],
      router: routeTo('complex'),
      defaultRoute: 'complex',
    });
    expect(outer.inspectModels()).toEqual([
      { model: 'm1', route: 'fast', state: 'available', failures: 0 },
    ]);
  });

  it('bindRouteState scopes each route model by route name, through nesting', () => {
    const simpleGroup = inspectableGroup([]);
    const fastGroup = inspectableGroup([]);
    const inner = new RoutingChatModel({
      routes: [{ name: 'fast', model: fastGroup }],
      router: routeTo('fast'),
      defaultRoute: 'fast',
    });
    const outer = new RoutingChatModel({
      routes: [
        { name: 'simple', model: simpleGroup },
        { name: 'plain', model: fakeModel('plain') },
        { name: 'complex', model: inner },
      ],
      router: routeTo('simple'),
      defaultRoute: 'simple',
    });
    const store = new InMemoryRouteStateStore();
    const clock = jest.fn(() => 42);
    outer.bindRouteState({ store, scope: 'default', clock });

    expect(simpleGroup.bindRouteState).toHaveBeenCalledTimes(1);
    expect(simpleGroup.bindRouteState).toHaveBeenCalledWith({
      store,
      scope: 'default/simple',
      clock,
    });
    expect(fastGroup.bindRouteState).toHaveBeenCalledWith({
      store,
      scope: 'default/complex/fast',
      clock,
    });
  });

  it('routeModel(name) returns the model of a route, undefined for an unknown name', () => {
    const simple = fakeModel('simple');
    const model = new RoutingChatModel({
      routes: [{ name: 'simple', model: simple }],
      router: routeTo('simple'),
      defaultRoute: 'simple',
    });
    expect(model.routeModel('simple')).toBe(simple);
    expect(model.routeModel('medium')).toBeUndefined();
  });
});
