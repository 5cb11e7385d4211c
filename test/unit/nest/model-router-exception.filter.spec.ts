import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import type { ArgumentsHost, HttpServer } from '@nestjs/common';
import {
  InvalidConfigurationException,
  InvalidDecisionResponseException,
  NoMatchingModelFoundException,
  RoutingException,
} from '../../../src/core/errors/exceptions.js';
import { ProviderException } from '../../../src/core/errors/provider-exception.js';
import { ModelTimeoutException } from '../../../src/core/errors/timeout-exception.js';
import type { ErrorKind } from '../../../src/core/resilience/error-classification.js';
import { ModelRouterExceptionFilter } from '../../../src/nest/http/model-router-exception.filter.js';
import { UnknownRouterException } from '../../../src/core/errors/unknown-router.exception.js';

/** Records what the filter answers through the HTTP adapter. */
function respond(exception: Error) {
  const sent: { body?: unknown; status?: number; headers: Record<string, string> } = {
    headers: {},
  };
  const adapter = {
    isHeadersSent: () => false,
    reply: (_res: unknown, body: unknown, status: number) => Object.assign(sent, { body, status }),
    setHeader: (_res: unknown, name: string, value: string) => {
      sent.headers[name] = value;
    },
    end: () => undefined,
  } as unknown as HttpServer;
  const response = {};
  const host = {
    getType: () => 'http',
    getArgByIndex: (index: number) => (index === 1 ? response : undefined),
    switchToHttp: () => ({ getResponse: () => response }),
  } as unknown as ArgumentsHost;
  new ModelRouterExceptionFilter(adapter).catch(exception as never, host);
  return sent;
}

const provider = (kind: ErrorKind, retryAfterMs?: number) =>
  new ProviderException(`upstream said no (key sk-abcdefghijklmnop)`, {
    kind,
    provider: 'openai',
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  });

describe('ModelRouterExceptionFilter', () => {
  it.each([
    [new UnknownRouterException("Unknown router 'x'", 'x', []), 404, 'model_not_found'],
    [new NoMatchingModelFoundException('No matching route', []), 502, 'all_models_failed'],
    [provider('invalid-request'), 400, undefined],
    [provider('context-length'), 400, 'context_length_exceeded'],
    [provider('content-policy'), 400, 'content_policy_violation'],
    [provider('rate-limited'), 429, 'rate_limit_exceeded'],
    [provider('transient'), 502, undefined],
    [provider('misconfigured'), 502, undefined],
    [new ModelTimeoutException('attempt', 1000, 'gpt'), 504, 'timeout'],
    [new InvalidDecisionResponseException('bad label'), 502, 'invalid_decision'],
    [new RoutingException('router returned null'), 500, undefined],
    [new InvalidConfigurationException('broken'), 500, 'invalid_configuration'],
  ])('%s → %i %s', (exception, status, code) => {
    const sent = respond(exception);
    expect(sent.status).toBe(status);
    expect(sent.body).toEqual({
      statusCode: status,
      error: exception.name,
      ...(code === undefined ? {} : { code }),
      message: exception.message.replace('sk-abcdefghijklmnop', 'sk-***'),
    });
  });

  it('tells when to retry: all models cooling down, or a rate limit', () => {
    expect(
      respond(new NoMatchingModelFoundException('cooling', [], { retryAfterMs: 12_300 })).headers,
    ).toEqual({
      'Retry-After': '13',
    });
    expect(respond(provider('rate-limited', 200)).headers).toEqual({ 'Retry-After': '1' });
    expect(respond(provider('transient', 5000)).headers).toEqual({});
  });

  it('every model refusing the request alike is that refusal, not an outage to retry', () => {
    const tooLong = new NoMatchingModelFoundException('No matching route', [
      provider('context-length'),
      provider('context-length'),
    ]);
    expect(respond(tooLong)).toMatchObject({ status: 400, body: { error: 'ProviderException' } });
    const mixed = new NoMatchingModelFoundException('No matching route', [
      provider('context-length'),
      provider('transient'),
    ]);
    expect(respond(mixed).status).toBe(502);
  });

  it('answers on the reply itself when made with `new` and no adapter (useGlobalFilters)', () => {
    const sent: { status?: number; headers: Record<string, string>; body?: unknown } = {
      headers: {},
    };
    // the part Express's res and Fastify's reply have in common
    const reply = {
      status: (code: number) => Object.assign(sent, { status: code }) && reply,
      header: (name: string, value: string) => {
        sent.headers[name] = value;
        return reply;
      },
      send: (body: unknown) => Object.assign(sent, { body }),
    };
    const host = {
      getType: () => 'http',
      switchToHttp: () => ({ getResponse: () => reply }),
    } as unknown as ArgumentsHost;
    const cooling = new NoMatchingModelFoundException('every model cools down', [], {
      retryAfterMs: 4_200,
    });
    new ModelRouterExceptionFilter().catch(cooling, host);
    expect(sent).toEqual({
      status: 503,
      headers: { 'Retry-After': '5' },
      body: {
        statusCode: 503,
        error: 'NoMatchingModelFoundException',
        code: 'models_cooling_down',
        message: 'every model cools down',
      },
    });
  });
});
