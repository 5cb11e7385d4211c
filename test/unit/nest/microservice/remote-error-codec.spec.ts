import { describe, expect, it } from '@jest/globals';
import {
  InvalidConfigurationException,
  InvalidDecisionResponseException,
  ModelRouterException,
  NoMatchingModelFoundException,
  RoutingException,
} from '../../../../src/core/errors/exceptions.js';
import { BudgetExceededException } from '../../../../src/core/errors/budget-exceeded.exception.js';
import { ContextLengthExceededException } from '../../../../src/core/errors/context-length-exceeded.exception.js';
import { InvalidChatRequestException } from '../../../../src/core/errors/invalid-chat-request.exception.js';
import { ProviderException } from '../../../../src/core/errors/provider-exception.js';
import { ModelTimeoutException } from '../../../../src/core/errors/timeout-exception.js';
import {
  fromRemoteError,
  MAX_ERROR_MESSAGE_LENGTH,
  MAX_NESTED_ERRORS,
  toRemoteError,
} from '../../../../src/nest/microservice/remote-error-codec.js';
import { RemoteModelRouterException } from '../../../../src/nest/microservice/remote-model-router.exception.js';
import { UnknownRouterException } from '../../../../src/core/errors/unknown-router.exception.js';
import { UnpricedModelException } from '../../../../src/core/errors/unpriced-model.exception.js';

/** As a transport carries it: JSON. */
const across = (error: unknown): Error =>
  fromRemoteError(
    JSON.parse(JSON.stringify(toRemoteError(error))) as ReturnType<typeof toRemoteError>,
  );

describe('the remote error codec', () => {
  it.each([
    new ModelRouterException('base'),
    new InvalidConfigurationException('config'),
    new RoutingException('routing'),
    new InvalidDecisionResponseException('decision'),
    new InvalidChatRequestException('bad request'),
  ])('rebuilds %p as the same class and message', (error) => {
    const rebuilt = across(error);

    expect(rebuilt.constructor).toBe(error.constructor);
    expect(rebuilt.message).toBe(error.message);
    expect(rebuilt.name).toBe(error.name);
  });

  it('keeps the fields of ProviderException, ModelTimeoutException and UnknownRouterException', () => {
    const provider = new ProviderException('429', {
      kind: 'rate-limited',
      provider: 'anthropic',
      model: 'claude',
      status: 429,
      code: 'rate_limit_error',
      retryAfterMs: 2_000,
    });
    expect(across(provider)).toEqual(provider);
    expect(across(provider)).toBeInstanceOf(ProviderException);

    const timeout = across(new ModelTimeoutException('idle', 900, 'gpt'));
    expect(timeout).toBeInstanceOf(ModelTimeoutException);
    expect(timeout).toMatchObject({ phase: 'idle', timeoutMs: 900, kind: 'timeout' });
    expect(timeout.message).toBe("Model 'gpt' exceeded its idle timeout of 900 ms");

    const unknown = across(new UnknownRouterException("Unknown router 'x'", 'x', ['a', 'b']));
    expect(unknown).toBeInstanceOf(UnknownRouterException);
    expect(unknown).toMatchObject({ requested: 'x', known: ['a', 'b'] });
  });

  it('keeps the fields of UnpricedModelException', () => {
    const unpriced = new UnpricedModelException({ budget: 'key:a', models: ['openai/gpt-x'] });
    const rebuilt = across(unpriced);
    expect(rebuilt).toBeInstanceOf(UnpricedModelException);
    expect(rebuilt).toMatchObject({
      budget: 'key:a',
      models: ['openai/gpt-x'],
      kind: 'invalid-request',
      message: unpriced.message,
    });
  });

  it('keeps the fields of BudgetExceededException and ContextLengthExceededException', () => {
    const budget = new BudgetExceededException({
      budget: 'team-a',
      limitUsd: 5,
      spentUsd: 5.01,
      resetsAt: 1_800_000_000_000,
      now: 1_799_999_000_000,
      models: ['mini'],
    });
    const rebuiltBudget = across(budget);
    expect(rebuiltBudget).toBeInstanceOf(BudgetExceededException);
    expect(rebuiltBudget).toMatchObject({
      budget: 'team-a',
      limitUsd: 5,
      spentUsd: 5.01,
      resetsAt: 1_800_000_000_000,
      retryAfterMs: 1_000_000,
      kind: 'rate-limited',
      message: budget.message,
    });

    const context = new ContextLengthExceededException({
      promptTokens: 9_000,
      outputTokens: 1_000,
      largestContextWindow: 8_192,
      models: ['mini'],
    });
    const rebuiltContext = across(context);
    expect(rebuiltContext).toBeInstanceOf(ContextLengthExceededException);
    expect(rebuiltContext).toMatchObject({
      promptTokens: 9_000,
      outputTokens: 1_000,
      largestContextWindow: 8_192,
      message: context.message,
    });
  });

  it('rebuilds every attempt of NoMatchingModelFoundException, bounded in count and depth', () => {
    const attempts = Array.from({ length: 40 }, (_, index) => new Error(`attempt ${index}`));
    const inner = new NoMatchingModelFoundException('inner', attempts);
    const outer = new NoMatchingModelFoundException('outer', [inner], { retryAfterMs: 5_000 });

    const rebuilt = across(outer) as NoMatchingModelFoundException;

    expect(rebuilt).toBeInstanceOf(NoMatchingModelFoundException);
    expect(rebuilt.retryAfterMs).toBe(5_000);
    const [nested] = rebuilt.errors as NoMatchingModelFoundException[];
    expect(nested).toBeInstanceOf(NoMatchingModelFoundException);
    expect(nested!.errors).toHaveLength(MAX_NESTED_ERRORS);
    expect(nested!.errors[0]).toBeInstanceOf(RemoteModelRouterException);
    expect(nested!.errors[0]).toMatchObject({
      remoteName: 'Error',
      message: 'attempt 0',
      kind: 'unknown',
    });

    let deep: unknown = new Error('bottom');
    for (let level = 0; level < 10; level++)
      deep = new NoMatchingModelFoundException(`level ${level}`, [deep]);
    let data = toRemoteError(deep);
    let depth = 0;
    while (data.errors && data.errors.length > 0) {
      data = data.errors[0]!;
      depth++;
    }
    expect(depth).toBeLessThanOrEqual(3);
  });

  it('sends no stack or cause, scrubs credentials and bounds the message', () => {
    const error = new Error(
      `failed with Bearer abc.def.ghi and sk-${'x'.repeat(20)} ${'y'.repeat(5_000)}`,
      {
        cause: new Error('secret cause'),
      },
    );

    const data = toRemoteError(error);

    expect(Object.keys(data).toSorted()).toEqual(['kind', 'message', 'name']);
    expect(data.message).toContain('Bearer ***');
    expect(data.message).toContain('sk-***');
    expect(data.message.length).toBe(MAX_ERROR_MESSAGE_LENGTH);
    expect(JSON.stringify(data)).not.toContain('secret cause');
  });

  it("an abort on the service's side comes back as a transient failure, not as the caller's abort", () => {
    const data = toRemoteError(
      new DOMException('The model router service is shutting down', 'AbortError'),
    );
    expect(data).toMatchObject({ name: 'AbortError', kind: 'aborted' });

    const rebuilt = fromRemoteError(data);
    expect(rebuilt).toBeInstanceOf(RemoteModelRouterException);
    expect(rebuilt).toMatchObject({ kind: 'transient', remoteName: 'AbortError' });
  });

  it('reads hostile data defensively', () => {
    const rebuilt = fromRemoteError({
      name: 'ProviderException',
      message: 'x',
      kind: 'not-a-kind' as never,
      status: 'nope' as never,
      provider: 42 as never,
    });
    expect(rebuilt).toMatchObject({ kind: 'unknown', provider: 'unknown' });
    expect((rebuilt as ProviderException).status).toBeUndefined();
    expect(
      fromRemoteError({
        name: 'NoMatchingModelFoundException',
        message: 'm',
        errors: 'x' as never,
      }),
    ).toMatchObject({
      errors: [],
    });
  });
});
