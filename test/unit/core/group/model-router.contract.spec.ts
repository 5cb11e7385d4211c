import { describe, expect, it, jest } from '@jest/globals';
import { Capability } from '../../../../src/core/chat/capability.js';
import { aiMessage, toolResultMessage, userMessage } from '../../../../src/core/chat/messages.js';
import type { ChatRequest } from '../../../../src/core/chat/request.js';
import {
  InvalidConfigurationException,
  NoMatchingModelFoundException,
  RoutingException,
} from '../../../../src/core/errors/exceptions.js';
import type { ChatModelWrapper } from '../../../../src/core/chat/chat-model-wrapper.js';
import { wrapModel } from '../../../../src/core/chat/chat-model-wrapper.js';
import { MODEL_ATTRIBUTE } from '../../../../src/core/chat/call-attributes.js';
import { ModelRouter } from '../../../../src/core/group/model-router.js';
import type {
  ModelErrorEvent,
  ModelRoutingFunction,
  ModelRoutingStrategy,
  StrategyCallContext,
} from '../../../../src/core/strategies/model-routing-strategy.js';
import { answer, fakeModel, request } from '../strategies/fakes.js';

const firstModel: ModelRoutingFunction = (models) => models[0];
const none: ModelRoutingFunction = () => undefined;
const ignore = () => undefined;
const buildWithoutStrategy = () =>
  new ModelRouter({ routes: [fakeModel('a')] } as unknown as ConstructorParameters<
    typeof ModelRouter
  >[0]);
const withCaps = (...caps: Capability[]) => ({
  chat: fakeModel('x').chat,
  supportedCapabilities: () => new Set(caps),
});

describe('2.4 ModelRouter construction', () => {
  it('a route without a name is named model-N, N its 1-based position in routes', () => {
    const router = new ModelRouter({
      routes: [fakeModel('x'), { name: 'named', model: fakeModel('y') }, fakeModel('z')],
      routingStrategy: firstModel,
    });
    expect(router.models().map((model) => model.name)).toEqual(['model-1', 'named', 'model-3']);
  });

  it('a missing routingStrategy throws InvalidConfigurationException containing routingStrategy', () => {
    expect(buildWithoutStrategy).toThrow(InvalidConfigurationException);
    expect(buildWithoutStrategy).toThrow(/routingStrategy/);
  });

  it('a routingStrategy that is neither a function nor an object with route is rejected by name', () => {
    expect(
      () =>
        new ModelRouter({ routes: [fakeModel('a')], routingStrategy: {} as ModelRoutingStrategy }),
    ).toThrow(/routingStrategy/);
  });

  it('bad routes name what is wrong', () => {
    const strategy = firstModel;
    expect(
      () => new ModelRouter({ routes: undefined as never, routingStrategy: strategy }),
    ).toThrow(/routes/);
    expect(() => new ModelRouter({ routes: [], routingStrategy: strategy })).toThrow(/routes/);
    expect(
      () => new ModelRouter({ routes: [fakeModel('a'), {} as never], routingStrategy: strategy }),
    ).toThrow(/model-2/);
    expect(
      () =>
        new ModelRouter({
          routes: [{ name: ' ', model: fakeModel('a') }],
          routingStrategy: strategy,
        }),
    ).toThrow(/name of route/);
    expect(
      () =>
        new ModelRouter({
          routes: [{ name: 'a', model: {} as never }],
          routingStrategy: strategy,
        }),
    ).toThrow(/model of route 'a'/);
    expect(
      () =>
        new ModelRouter({
          routes: [{ name: 'model-2', model: fakeModel('a') }, fakeModel('b')],
          routingStrategy: strategy,
        }),
    ).toThrow(/more than one model named 'model-2'/);
    expect(
      () =>
        new ModelRouter({
          routes: [fakeModel('a')],
          routingStrategy: strategy,
          defaultRoute: { chat: 'no' } as never,
        }),
    ).toThrow(/defaultRoute/);
    expect(
      () =>
        new ModelRouter({
          routes: [fakeModel('a')],
          routingStrategy: strategy,
          errorListeners: ['x' as never],
        }),
    ).toThrow(/errorListeners/);
  });

  it('routes may be empty when a defaultRoute serves', async () => {
    const fallback = fakeModel('fallback');
    const router = new ModelRouter({
      routes: [],
      routingStrategy: firstModel,
      defaultRoute: fallback,
    });
    await expect(router.chat(request)).resolves.toEqual(answer('fallback'));
  });

  it('registers its models with a strategy that wants them', () => {
    const registerModels = jest.fn();
    const router = new ModelRouter({
      routes: [fakeModel('a')],
      routingStrategy: { route: firstModel, registerModels },
    });
    expect(registerModels).toHaveBeenCalledWith(router.models());
  });
});

describe('2.4.1 each call: the strategy picks among the routes not yet tried', () => {
  it('the first call offers every route, in registration order, and returns the chosen model’s response', async () => {
    const a = fakeModel('a');
    const b = fakeModel('b', answer('from b'));
    const route = jest.fn<ModelRoutingFunction>((models) => models[1]);
    const router = new ModelRouter({
      routes: [
        { name: 'a', model: a },
        { name: 'b', model: b },
      ],
      routingStrategy: route,
    });
    await expect(router.chat(request)).resolves.toEqual(answer('from b'));
    expect(route.mock.calls[0]![0].map((model) => model.name)).toEqual(['a', 'b']);
    expect(route.mock.calls[0]![1]).toBe(request);
    expect(a.chat).not.toHaveBeenCalled();
  });

  it('undefined from the strategy → defaultRoute', async () => {
    const a = fakeModel('a');
    const fallback = fakeModel('fallback', answer('default answer'));
    const router = new ModelRouter({ routes: [a], routingStrategy: none, defaultRoute: fallback });
    await expect(router.chat(request)).resolves.toEqual(answer('default answer'));
    expect(a.chat).not.toHaveBeenCalled();
  });

  it('the defaultRoute is tried at most once per call', async () => {
    const fallback = fakeModel('fallback', new Error('fallback is down'));
    const router = new ModelRouter({
      routes: [fakeModel('a')],
      routingStrategy: none,
      defaultRoute: fallback,
    });
    const error = await router.chat(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoMatchingModelFoundException);
    expect(fallback.chat).toHaveBeenCalledTimes(1);
  });

  it('nothing to try → NoMatchingModelFoundException containing No matching route', async () => {
    const router = new ModelRouter({ routes: [fakeModel('a')], routingStrategy: none });
    const error = await router.chat(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoMatchingModelFoundException);
    expect((error as Error).message).toContain('No matching route');
    expect((error as NoMatchingModelFoundException).errors).toEqual([]);
  });

  it('on failure: every listener gets the event, onFailure runs, then the strategy is asked among the untried routes', async () => {
    const boom = new Error('a is down');
    const a = fakeModel('a', boom);
    const b = fakeModel('b', answer('from b'));
    const order: string[] = [];
    const offered: string[][] = [];
    const strategy: ModelRoutingStrategy = {
      route: (models) => {
        offered.push(models.map((model) => model.name));
        order.push('route');
        return models[0];
      },
      onFailure: (model, error, req) => {
        order.push(`onFailure:${model.name}`);
        expect(error).toBe(boom);
        expect(req).toBe(request);
      },
    };
    const seen: ModelErrorEvent[] = [];
    const router = new ModelRouter({
      routes: [
        { name: 'a', model: a },
        { name: 'b', model: b },
      ],
      routingStrategy: strategy,
      errorListeners: [
        (event) => {
          order.push('listener1');
          seen.push(event);
        },
        () => {
          order.push('listener2');
        },
      ],
    });
    await expect(router.chat(request)).resolves.toEqual(answer('from b'));
    expect(offered).toEqual([['a', 'b'], ['b']]);
    expect(order).toEqual(['route', 'listener1', 'listener2', 'onFailure:a', 'route']);
    expect(seen).toEqual([{ model: 'a', error: boom, attempt: 1, request }]);
  });

  it('each route is called at most once per call, even when the strategy insists on a tried one', async () => {
    const a = fakeModel('a', new Error('a is down'));
    const b = fakeModel('b', new Error('b is down'));
    // a strategy that always wants 'a', by name, with its own wrapper objects
    const stubborn: ModelRoutingFunction = (models) =>
      models.some((model) => model.name === 'a') ? wrapModel('a', a) : undefined;
    const router = new ModelRouter({
      routes: [
        { name: 'a', model: a },
        { name: 'b', model: b },
      ],
      routingStrategy: stubborn,
    });
    await expect(router.chat(request)).rejects.toBeInstanceOf(NoMatchingModelFoundException);
    expect(a.chat).toHaveBeenCalledTimes(1);
    expect(b.chat).not.toHaveBeenCalled();
  });

  it('a plain Error counts as the model’s failure: the next model is tried', async () => {
    const router = new ModelRouter({
      routes: [fakeModel('a', new Error('plain')), fakeModel('b', answer('b'))],
      routingStrategy: firstModel,
    });
    await expect(router.chat(request)).resolves.toEqual(answer('b'));
  });

  it('all attempts failed → NoMatchingModelFoundException with every attempt’s error in order', async () => {
    const e1 = new Error('one');
    const e2 = new TypeError('two');
    const e3 = new Error('three');
    const router = new ModelRouter({
      routes: [fakeModel('a', e1), fakeModel('b', e2)],
      routingStrategy: firstModel,
      defaultRoute: fakeModel('fallback', e3),
    });
    const error = (await router
      .chat(request)
      .catch((e: unknown) => e)) as NoMatchingModelFoundException;
    expect(error).toBeInstanceOf(NoMatchingModelFoundException);
    expect(error.errors).toEqual([e1, e2, e3]);
    expect(error.message).toContain('No matching route');
    expect(error.message).toContain('model-1: Error: one');
    expect(error.message).toContain('model-2: TypeError: two');
    expect(error.message).toContain('default: Error: three');
  });

  it('attempt counts from 1 within the call and includes the default route', async () => {
    const attempts: number[] = [];
    const router = new ModelRouter({
      routes: [fakeModel('a', new Error('a is down')), fakeModel('b', new Error('b is down'))],
      routingStrategy: firstModel,
      defaultRoute: fakeModel('c', new Error('c is down')),
      errorListeners: [(event) => attempts.push(event.attempt)],
    });
    await router.chat(request).catch(() => undefined);
    await router.chat(request).catch(() => undefined);
    expect(attempts).toEqual([1, 2, 3, 1, 2, 3]);
  });

  it('addErrorListener adds a listener for later calls and returns its removal', async () => {
    const router = new ModelRouter({
      routes: [fakeModel('a', new Error('a is down')), fakeModel('b')],
      routingStrategy: firstModel,
    });
    const listener = jest.fn();
    const remove = router.addErrorListener(listener);
    await router.chat(request);
    expect(listener).toHaveBeenCalledTimes(1);
    remove();
    await router.chat(request);
    expect(listener).toHaveBeenCalledTimes(1);
  });
});

describe('2.4 the call’s signal and attributes are passed on to the model that is called', () => {
  it('passes signal, attributes and observer, the request unchanged', async () => {
    const a = fakeModel('a');
    const router = new ModelRouter({ routes: [a], routingStrategy: firstModel });
    const signal = new AbortController().signal;
    const attributes = { tenant: 't1' };
    await router.chat(request, { signal, attributes, observer: ignore });
    expect(a.calls[0]!.request).toBe(request);
    expect(a.calls[0]!.options).toEqual({ signal, attributes, observer: ignore });
  });

  it('includes only the keys the caller supplied', async () => {
    const a = fakeModel('a');
    const router = new ModelRouter({ routes: [a], routingStrategy: firstModel });
    await router.chat(request);
    expect(a.calls[0]!.options).toEqual({});
    await router.chat(request, { attributes: { x: 1 } });
    expect(Object.keys(a.calls[1]!.options!)).toEqual(['attributes']);
  });

  it('the strategy gets a call context as last argument: attributes, signal, route, attempt', async () => {
    const contexts: StrategyCallContext[] = [];
    const router = new ModelRouter({
      routes: [fakeModel('a', new Error('a is down')), fakeModel('b')],
      routingStrategy: (models, _req, context) => {
        contexts.push(context!);
        return models[0];
      },
    });
    const signal = new AbortController().signal;
    await router.chat(request, { signal, attributes: { chat_model_route: 'simple' } });
    expect(contexts.map((c) => [c.attempt, c.route, c.signal === signal])).toEqual([
      [1, 'simple', true],
      [2, 'simple', true],
    ]);
  });

  it('a signal aborted before the call rejects with its reason and calls no model', async () => {
    const a = fakeModel('a');
    const router = new ModelRouter({ routes: [a], routingStrategy: firstModel });
    const controller = new AbortController();
    const reason = new Error('gone');
    controller.abort(reason);
    await expect(router.chat(request, { signal: controller.signal })).rejects.toBe(reason);
    expect(a.chat).not.toHaveBeenCalled();
  });

  it('an abort during the model call rejects with the reason and does not fail over', async () => {
    const controller = new AbortController();
    const reason = new Error('caller left');
    const hanging = {
      chat: jest.fn(() => {
        controller.abort(reason);
        return new Promise<never>(() => undefined); // never answers: the abort must end the call
      }),
    };
    const b = fakeModel('b');
    const router = new ModelRouter({ routes: [hanging, b], routingStrategy: firstModel });
    await expect(router.chat(request, { signal: controller.signal })).rejects.toBe(reason);
    expect(b.chat).not.toHaveBeenCalled();
  });
});

describe('2.4 classification: the caller’s own errors are not failed over', () => {
  it.each(['invalid-request', 'content-policy'])(
    'a %s error is rethrown at once; listeners see it; onFailure does not run (it does not count)',
    async (kind) => {
      const error = Object.assign(new Error('bad request'), { kind });
      const b = fakeModel('b');
      const onFailure = jest.fn<() => void>();
      const onCancel = jest.fn<() => void>();
      const listener = jest.fn<(event: ModelErrorEvent) => void>();
      const router = new ModelRouter({
        routes: [fakeModel('a', error), b],
        routingStrategy: { route: firstModel, onFailure, onCancel },
        errorListeners: [listener],
      });
      await expect(router.chat(request)).rejects.toBe(error);
      expect(b.chat).not.toHaveBeenCalled();
      expect(listener).toHaveBeenCalledWith(expect.objectContaining({ model: 'model-1', error }));
      expect(onFailure).not.toHaveBeenCalled();
      expect(onCancel).toHaveBeenCalledTimes(1); // releases what the attempt held
    },
  );

  it('an override can make content-policy fail over', async () => {
    const error = Object.assign(new Error('refused'), { kind: 'content-policy' });
    const router = new ModelRouter({
      routes: [fakeModel('a', error), fakeModel('b', answer('b'))],
      routingStrategy: firstModel,
      errorDispositions: { 'content-policy': { failover: true } },
    });
    await expect(router.chat(request)).resolves.toEqual(answer('b'));
  });

  it('a non-counting error that still fails over (context-length) reaches onFailure with its disposition', async () => {
    const error = Object.assign(new Error('too long'), { kind: 'context-length' });
    const onFailure = jest.fn<NonNullable<ModelRoutingStrategy['onFailure']>>();
    const router = new ModelRouter({
      routes: [fakeModel('a', error), fakeModel('b')],
      routingStrategy: { route: firstModel, onFailure },
    });
    await router.chat(request);
    const context = onFailure.mock.calls[0]![3]!;
    expect(context.errorKind).toBe('context-length');
    expect(context.disposition).toEqual(
      expect.objectContaining({ failover: true, countsAsFailure: false }),
    );
  });

  it('a custom classifier decides', async () => {
    const router = new ModelRouter({
      routes: [fakeModel('a', new Error('a is down')), fakeModel('b')],
      routingStrategy: firstModel,
      classifyError: () => 'invalid-request',
    });
    await expect(router.chat(request)).rejects.toThrow('a is down');
  });
});

describe('2.4.4 a strategy error or a listener error never hides the model’s own result', () => {
  it('throwing onSuccess, onFailure and listeners do not change the answer', async () => {
    const router = new ModelRouter({
      routes: [fakeModel('a', new Error('a is down')), fakeModel('b', answer('from b'))],
      routingStrategy: {
        route: firstModel,
        onSuccess: () => {
          throw new Error('onSuccess broke');
        },
        onFailure: async () => {
          throw new Error('onFailure broke');
        },
      },
      errorListeners: [
        () => {
          throw new Error('listener broke');
        },
        async () => {
          throw new Error('async listener broke');
        },
      ],
    });
    await expect(router.chat(request)).resolves.toEqual(answer('from b'));
  });

  it('throwing hooks do not change the failure either', async () => {
    const boom = new Error('model failed');
    const router = new ModelRouter({
      routes: [fakeModel('a', boom)],
      routingStrategy: {
        route: firstModel,
        onFailure: () => {
          throw new Error('onFailure broke');
        },
      },
      errorListeners: [
        () => {
          throw new Error('listener broke');
        },
      ],
    });
    const error = (await router
      .chat(request)
      .catch((e: unknown) => e)) as NoMatchingModelFoundException;
    expect(error.errors).toEqual([boom]);
  });

  it('a strategy that throws when asked again does not hide the earlier failures', async () => {
    const boom = new Error('a failed');
    let asked = 0;
    const router = new ModelRouter({
      routes: [fakeModel('a', boom), fakeModel('b')],
      routingStrategy: (models) => {
        if (asked++ > 0) throw new Error('strategy broke');
        return models[0];
      },
    });
    const error = (await router
      .chat(request)
      .catch((e: unknown) => e)) as NoMatchingModelFoundException;
    expect(error).toBeInstanceOf(NoMatchingModelFoundException);
    expect(error.errors).toEqual([boom]);
    expect(error.message).toContain('strategy broke');
  });

  it('a strategy error before any attempt is the call’s error', async () => {
    const broke = new Error('strategy broke');
    const router = new ModelRouter({
      routes: [fakeModel('a')],
      routingStrategy: () => {
        throw broke;
      },
    });
    await expect(router.chat(request)).rejects.toBe(broke);
  });

  it('a strategy that returns a model it was not offered gets a RoutingException naming it', async () => {
    const router = new ModelRouter({
      routes: [fakeModel('a')],
      routingStrategy: () => wrapModel('ghost', fakeModel('ghost')),
    });
    await expect(router.chat(request)).rejects.toThrow(RoutingException);
    await expect(router.chat(request)).rejects.toThrow(/'ghost'/);
  });

  it('a model answering without an aiMessage is that model’s failure', async () => {
    const broken = { chat: async () => null as never };
    const router = new ModelRouter({
      routes: [broken, fakeModel('b', answer('b'))],
      routingStrategy: firstModel,
    });
    await expect(router.chat(request)).resolves.toEqual(answer('b'));
  });
});

describe('ModelRouter as a ChatModel', () => {
  it('supportedCapabilities is the union, but ASSISTANT_PREFILL only when every model has it', () => {
    const router = new ModelRouter({
      routes: [
        withCaps(Capability.RESPONSE_FORMAT_JSON_SCHEMA, Capability.ASSISTANT_PREFILL),
        withCaps(),
      ],
      routingStrategy: firstModel,
    });
    expect([...router.supportedCapabilities()]).toEqual([Capability.RESPONSE_FORMAT_JSON_SCHEMA]);
    const all = new ModelRouter({
      routes: [withCaps(Capability.ASSISTANT_PREFILL), withCaps(Capability.ASSISTANT_PREFILL)],
      routingStrategy: firstModel,
    });
    expect(all.supportedCapabilities().has(Capability.ASSISTANT_PREFILL)).toBe(true);
    expect(all.defaultRequestParameters()).toEqual({});
  });

  it('a tool-call answer names its model, and the tool loop’s next round returns to that model', async () => {
    const toolAnswer = {
      aiMessage: aiMessage({ toolCalls: [{ id: 'c1', name: 'lookup', arguments: '{}' }] }),
    };
    const a = fakeModel('a');
    const b = fakeModel('b', toolAnswer, answer('done'));
    let pick = 1; // the strategy would pick b for the first round, a afterwards
    const router = new ModelRouter({
      routes: [
        { name: 'a', model: a },
        { name: 'b', model: b },
      ],
      routingStrategy: (models) => (models.length === 1 ? models[0] : models[pick]),
    });
    const toolRound = await router.chat(request);
    expect(toolRound.aiMessage.attributes?.[MODEL_ATTRIBUTE]).toBe('b');
    pick = 0;
    const followUp: ChatRequest = JSON.parse(
      JSON.stringify({
        messages: [userMessage('Hello'), toolRound.aiMessage, toolResultMessage('c1', '42')],
      }),
    );
    await expect(router.chat(followUp)).resolves.toEqual(answer('done'));
    expect(b.chat).toHaveBeenCalledTimes(2);
    expect(a.chat).not.toHaveBeenCalled();
  });

  it('a plain text answer is returned as the model gave it', async () => {
    const response = answer('hi');
    const router = new ModelRouter({
      routes: [fakeModel('a', response)],
      routingStrategy: firstModel,
    });
    await expect(router.chat(request)).resolves.toBe(response);
  });

  it('without an inspectable strategy every model is available; the default route is listed too', () => {
    const router = new ModelRouter({
      routes: [fakeModel('a'), fakeModel('b')],
      routingStrategy: firstModel,
      defaultRoute: fakeModel('c'),
    });
    expect(router.inspectModels()).toEqual([
      { model: 'model-1', state: 'available', failures: 0 },
      { model: 'model-2', state: 'available', failures: 0 },
      { model: 'default', state: 'available', failures: 0 },
    ]);
  });

  it('models() exposes the wrappers under their names', () => {
    const a = fakeModel('a');
    const router = new ModelRouter({
      routes: [{ name: 'a', model: a }],
      routingStrategy: firstModel,
    });
    const [wrapper] = router.models() as ChatModelWrapper[];
    expect(wrapper!.name).toBe('a');
    expect(wrapper!.model).toBe(a);
    expect(wrapper!.metadata).toBeInstanceOf(Map);
  });
});
