// Contract tests for DESIGN.md 2.5 (errors), black-box through src/index.ts only.
import { describe, expect, it } from '@jest/globals';
import * as api from '../../src/index.js';
import {
  ChatModelRoutingResult,
  DecisionModelChatModelRouter,
  FallbackStrategy,
  InvalidConfigurationException,
  InvalidDecisionResponseException,
  ModelRouter,
  ModelRouterException,
  NoMatchingModelFoundException,
  RoutingChatModel,
  RoutingException,
  userMessage,
} from '../../src/index.js';
import { fakeModel } from './fakes.js';

const NAMED = {
  InvalidConfigurationException,
  RoutingException,
  NoMatchingModelFoundException,
  InvalidDecisionResponseException,
};

describe('2.5 error hierarchy', () => {
  it('ModelRouterException extends Error and is named ModelRouterException', () => {
    const error = new ModelRouterException('base failure');
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(ModelRouterException);
    expect(error.name).toBe('ModelRouterException');
    expect(error.message).toBe('base failure');
    expect(Object.getPrototypeOf(ModelRouterException.prototype)).toBe(Error.prototype);
  });

  it.each(Object.entries(NAMED))(
    '%s extends ModelRouterException and carries its name',
    (name, Cls) => {
      const error = new Cls('what went wrong');
      expect(error).toBeInstanceOf(Cls);
      expect(error).toBeInstanceOf(ModelRouterException);
      expect(error).toBeInstanceOf(Error);
      expect(error.name).toBe(name);
      expect(error.message).toBe('what went wrong');
      expect(typeof error.stack).toBe('string');
      expect(Cls.prototype).toBeInstanceOf(ModelRouterException);
    },
  );

  it('the named error classes are distinct (no one is a subclass of another)', () => {
    const classes = Object.values(NAMED);
    for (const a of classes) {
      for (const b of classes) {
        if (a !== b) expect(new a('x')).not.toBeInstanceOf(b);
      }
    }
  });

  it('NoMatchingModelFoundException carries an errors array', () => {
    const error = new NoMatchingModelFoundException('No matching route');
    expect(Array.isArray(error.errors)).toBe(true);
  });

  it('every exported class whose name ends in Exception extends ModelRouterException', () => {
    const exceptionClasses = Object.entries(api).filter(
      ([name, value]) => name.endsWith('Exception') && typeof value === 'function',
    );
    expect(exceptionClasses.map(([name]) => name)).toEqual(
      expect.arrayContaining([
        'ModelRouterException',
        'InvalidConfigurationException',
        'RoutingException',
        'NoMatchingModelFoundException',
        'InvalidDecisionResponseException',
      ]),
    );
    for (const [name, value] of exceptionClasses) {
      const prototype = (value as { prototype: unknown }).prototype;
      expect({ name, extendsError: prototype instanceof Error }).toEqual({
        name,
        extendsError: true,
      });
      if (name !== 'ModelRouterException') {
        expect({ name, extendsBase: prototype instanceof ModelRouterException }).toEqual({
          name,
          extendsBase: true,
        });
      }
    }
  });
});

describe('2.5 errors thrown by the components carry their class and name', () => {
  it('InvalidConfigurationException from RoutingChatModel construction', () => {
    let thrown: unknown;
    try {
      void new RoutingChatModel({
        routes: [],
        router: () => ChatModelRoutingResult.defaultRoute(),
        defaultRoute: 'a',
      });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidConfigurationException);
    expect(thrown).toBeInstanceOf(ModelRouterException);
    expect((thrown as Error).name).toBe('InvalidConfigurationException');
  });

  it('RoutingException from an unknown route, naming the route', async () => {
    const routing = new RoutingChatModel({
      routes: [{ name: 'known', model: fakeModel() }],
      router: () => ChatModelRoutingResult.route('missing-route'),
      defaultRoute: 'known',
    });
    const error = await routing.chat({ messages: [userMessage('x')] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RoutingException);
    expect(error).toBeInstanceOf(ModelRouterException);
    expect((error as Error).name).toBe('RoutingException');
    expect((error as Error).message).toContain('missing-route');
  });

  it('InvalidDecisionResponseException from a decision model answering an option not offered', async () => {
    const router = new DecisionModelChatModelRouter(
      { decide: async () => ({ value: 'not-offered' }) },
      { fallbackStrategy: FallbackStrategy.FAIL },
    );
    const error = await Promise.resolve(
      router.route({
        chatRequest: { messages: [userMessage('x')] },
        routes: [
          { name: 'a', descriptions: ['first'] },
          { name: 'b', descriptions: ['second'] },
        ],
        attributes: {},
      }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidDecisionResponseException);
    expect(error).toBeInstanceOf(ModelRouterException);
    expect((error as Error).name).toBe('InvalidDecisionResponseException');
    expect((error as Error).message).toContain('not-offered');
  });
  it('NoMatchingModelFoundException from a ModelRouter with nothing to try', async () => {
    const router = new ModelRouter({ routes: [fakeModel()], routingStrategy: () => undefined });
    const error = await router.chat({ messages: [userMessage('x')] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoMatchingModelFoundException);
    expect(error).toBeInstanceOf(ModelRouterException);
    expect((error as Error).name).toBe('NoMatchingModelFoundException');
  });
});
