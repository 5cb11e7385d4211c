import { describe, expect, it } from '@jest/globals';
import { lastValueFrom } from 'rxjs';
import type { ChatRequest } from '../../../src/core/chat/request.js';
import {
  NoMatchingModelFoundException,
  RoutingException,
} from '../../../src/core/errors/exceptions.js';
import { InvalidChatRequestException } from '../../../src/core/errors/invalid-chat-request.exception.js';
import { ProviderException } from '../../../src/core/errors/provider-exception.js';
import { ModelTimeoutException } from '../../../src/core/errors/timeout-exception.js';
import { MODEL_ROUTER_PATTERNS } from '../../../src/nest/microservice/model-router-patterns.js';
import { RemoteModelRouterException } from '../../../src/nest/microservice/remote-model-router.exception.js';
import { UnknownRouterException } from '../../../src/core/errors/unknown-router.exception.js';
import { collect } from '../../support/async.js';
import type { TransportName } from './support/router-service.js';
import { LEAKED_KEY } from './support/service-models.js';
import { useRouterService } from './support/use-router-service.js';

const ask = (text: string): ChatRequest => ({ messages: [{ role: 'user', content: text }] });

/** The keys error data may have: no stack, no cause. */
const DATA_KEYS = [
  'name',
  'message',
  'kind',
  'status',
  'retryAfterMs',
  'errors',
  'provider',
  'model',
  'code',
  'phase',
  'timeoutMs',
  'requested',
  'known',
];

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('the call did not fail');
}

describe.each<TransportName>(['tcp', 'redis'])('errors over %s', (transport) => {
  const handle = useRouterService(transport);

  it('an exhausted group: NoMatchingModelFoundException with every attempt rebuilt', async () => {
    const error = await rejection(handle.remote({ router: 'exhausted' }).chat(ask('hi')));

    expect(error).toBeInstanceOf(NoMatchingModelFoundException);
    const exhausted = error as NoMatchingModelFoundException;
    expect(exhausted.errors).toHaveLength(2);
    expect(exhausted.errors[0]).toBeInstanceOf(ProviderException);
    expect(exhausted.errors[0]).toMatchObject({
      kind: 'transient',
      status: 503,
      provider: 'openai',
    });
    expect(exhausted.errors[1]).toBeInstanceOf(ModelTimeoutException);
    expect(exhausted.errors[1]).toMatchObject({ phase: 'first-token', timeoutMs: 250 });
  });

  it('a provider error: ProviderException with its kind, status, code and retry-after', async () => {
    const error = await rejection(handle.remote({ router: 'limited' }).chat(ask('hi')));

    expect(error).toBeInstanceOf(ProviderException);
    expect(error).not.toBeInstanceOf(RemoteModelRouterException);
    expect(error).toMatchObject({
      name: 'ProviderException',
      message: 'openai answered 429: Rate limit reached for gpt-x',
      kind: 'rate-limited',
      provider: 'openai',
      model: 'gpt-x',
      status: 429,
      code: 'rate_limit_exceeded',
      retryAfterMs: 1_500,
    });
  });

  it('a timeout: ModelTimeoutException with its phase, bound and message', async () => {
    const error = await rejection(handle.remote({ router: 'slow' }).chat(ask('hi')));

    expect(error).toBeInstanceOf(ModelTimeoutException);
    expect(error).toMatchObject({ kind: 'timeout', phase: 'first-token', timeoutMs: 250 });
    expect((error as Error).message).toBe(
      "Model 'gpt-slow' exceeded its first-token timeout of 250 ms",
    );
  });

  it('a routing failure: RoutingException; an unknown router: UnknownRouterException with the known ones', async () => {
    const misrouted = await rejection(handle.remote({ router: 'misrouted' }).chat(ask('hi')));
    expect(misrouted).toBeInstanceOf(RoutingException);
    expect((misrouted as Error).message).toContain("unknown route 'medium'");

    const unknown = await rejection(handle.remote({ router: 'nope' }).chat(ask('hi')));
    expect(unknown).toBeInstanceOf(UnknownRouterException);
    expect(unknown).toBeInstanceOf(RoutingException);
    expect(unknown).toMatchObject({ requested: 'nope' });
    expect((unknown as UnknownRouterException).known).toContain('main');
  });

  it('a malformed request: InvalidChatRequestException naming the field, in chat and in stream', async () => {
    const bad = { messages: [{ role: 'robot', content: 'beep' }] } as unknown as ChatRequest;

    const error = await rejection(handle.remote().chat(bad));
    expect(error).toBeInstanceOf(InvalidChatRequestException);
    expect((error as Error).message).toContain(
      'request.messages.0.role must be one of the following values',
    );

    const streamed = await rejection(collect(handle.remote().stream(bad)));
    expect(streamed).toBeInstanceOf(InvalidChatRequestException);
  });

  it('an error of a class the client does not know: RemoteModelRouterException, scrubbed of credentials', async () => {
    const error = await rejection(handle.remote({ router: 'leaky' }).chat(ask('hi')));

    expect(error).toBeInstanceOf(RemoteModelRouterException);
    expect(error).toMatchObject({
      remoteName: 'Error',
      kind: 'unknown',
      provider: 'model-router-service',
    });
    const { message } = error as Error;
    expect(message).toContain('upstream said: invalid api_key=***');
    expect(message).not.toContain(LEAKED_KEY);
    expect(message).not.toContain('hunter2');
  });

  it('a stream that fails: the iteration rejects with the rebuilt class', async () => {
    const error = await rejection(collect(handle.remote({ router: 'limited' }).stream(ask('hi'))));

    expect(error).toBeInstanceOf(ProviderException);
    expect(error).toMatchObject({ kind: 'rate-limited', status: 429 });
  });

  it('what crosses the transport is plain data: no stack, no cause, nothing but the codec fields', async () => {
    const arrived = await rejection(
      lastValueFrom(
        handle.client.send(MODEL_ROUTER_PATTERNS.CHAT, { request: ask('hi'), router: 'exhausted' }),
      ),
    );

    expect(arrived).not.toBeInstanceOf(Error);
    const walk = (data: Record<string, unknown>): void => {
      for (const key of Object.keys(data)) expect(DATA_KEYS).toContain(key);
      for (const inner of (data.errors as Record<string, unknown>[] | undefined) ?? []) walk(inner);
    };
    walk(arrived as Record<string, unknown>);
    expect(arrived).toMatchObject({ name: 'NoMatchingModelFoundException', kind: 'unknown' });
    expect(JSON.stringify(arrived)).not.toContain('    at ');
  });

  it.each([
    ['not an object', 'hello', 'it must be an object'],
    ['no request', {}, 'request must be an object'],
    ['messages not an array', { request: { messages: 'hi' } }, 'request.messages must be an array'],
    [
      'no messages',
      { request: { messages: [] } },
      'request.messages must contain at least 1 elements',
    ],
    [
      'a user message without content',
      { request: { messages: [{ role: 'user' }] } },
      'request.messages.0.content',
    ],
    [
      'a temperature out of range',
      { request: { ...ask('hi'), parameters: { temperature: 7 } } },
      'request.parameters.temperature must not be greater than 2',
    ],
    [
      'too many messages',
      {
        request: { messages: Array.from({ length: 4097 }, () => ({ role: 'user', content: 'x' })) },
      },
      'at most 4096 messages',
    ],
    [
      'nested too deep',
      { request: ask('hi'), attributes: { deep: JSON.parse('['.repeat(70) + ']'.repeat(70)) } },
      'nested more than 64 levels deep',
    ],
    [
      // class-validator took 27 s over a million parts; the bounds' walk stops at the first breach
      'too many values',
      {
        request: {
          messages: Array.from({ length: 9 }, () => ({
            role: 'user',
            content: Array.from({ length: 4096 }, () => ({ type: 'text', text: '' })),
          })),
        },
      },
      'more than 100000 JSON values',
    ],
    [
      'an array over the bounds',
      { request: { ...ask('hi'), parameters: { stop: Array.from({ length: 4097 }, () => 's') } } },
      'request.parameters.stop has 4097 elements; at most 4096',
    ],
    [
      'too many attributes',
      {
        request: ask('hi'),
        attributes: Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`k${i}`, i])),
      },
      'attributes must have at most 64 keys',
    ],
    ['a bad call id', { request: ask('hi'), callId: 'a b' }, 'callId may hold'],
    ['a blank router', { request: ask('hi'), router: ' ' }, 'router must be a non-blank string'],
    [
      'a session too long',
      { request: ask('hi'), session: 'x'.repeat(257) },
      'session must be at most 256 characters',
    ],
  ])(
    'a bad payload (%s) is an InvalidChatRequestException naming the field; the service goes on',
    async (_, payload, expected) => {
      const arrived = await rejection(
        lastValueFrom(handle.client.send(MODEL_ROUTER_PATTERNS.CHAT, payload)),
      );

      expect(arrived).toMatchObject({
        name: 'InvalidChatRequestException',
        kind: 'invalid-request',
      });
      expect((arrived as { message: string }).message).toContain(
        'Invalid model-router.chat payload: ',
      );
      expect((arrived as { message: string }).message).toContain(expected);
      expect((arrived as { message: string }).message.length).toBeLessThanOrEqual(2_000);
      await expect(handle.remote().chat(ask('still there?'))).resolves.toMatchObject({
        aiMessage: { text: 'echo: still there?' },
      });
    },
  );

  it('a bad CANCEL payload is an error too, and cancelling an unknown call says so', async () => {
    await expect(
      lastValueFrom(handle.client.send(MODEL_ROUTER_PATTERNS.CANCEL, { callId: 42 })),
    ).rejects.toMatchObject({
      name: 'InvalidChatRequestException',
      message: expect.stringContaining('callId must be a non-empty string'),
    });
    await expect(
      lastValueFrom(handle.client.send(MODEL_ROUTER_PATTERNS.CANCEL, { callId: 'no-such-call' })),
    ).resolves.toEqual({
      cancelled: false,
    });
  });
});
