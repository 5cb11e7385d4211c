import { type ExecutionContext, HttpException, HttpStatus, Injectable } from '@nestjs/common';
import { ThrottlerGuard, type ThrottlerOptions } from '@nestjs/throttler';
import type { ServerResponse } from 'node:http';
import type { FastifyRequest } from 'fastify';
import { keyOf } from '../auth/request-key.js';
import type { HeadRefusal } from '../http/continue-gate.js';
import {
  KeyThrottlerStorage,
  LIMIT_WINDOW_MS,
  REQUESTS,
  throttlerKey,
  TOKENS,
} from './key-throttler-storage.js';
import { worstCaseTokens } from './token-worst-case.js';

type ThrottlerRequest = Parameters<ThrottlerGuard['handleRequest']>[0];

/**
 * The throttlers of @nestjs/throttler, per API key: `tokens` (a key's `tpm`) before `requests`
 * (its `rpm`), so a request refused for tokens does not use up a request. Only model calls (the
 * gateway's POST routes: chat and embeddings) count; keys without a limit, admin keys and a
 * gateway without `auth` are not limited.
 */
export function keyThrottlers(): ThrottlerOptions[] {
  return [
    { name: TOKENS, ttl: LIMIT_WINDOW_MS, limit: limitOf('tpm'), skipIf: unlimited('tpm') },
    { name: REQUESTS, ttl: LIMIT_WINDOW_MS, limit: limitOf('rpm'), skipIf: unlimited('rpm') },
  ];
}

function limitOf(field: 'rpm' | 'tpm') {
  return (context: ExecutionContext) =>
    keyOf(context.switchToHttp().getRequest<FastifyRequest>())?.client?.[field] ?? 0;
}

function unlimited(field: 'rpm' | 'tpm') {
  return (context: ExecutionContext) => {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    return request.method !== 'POST' || !keyOf(request)?.client?.[field];
  };
}
const unlimitedTpm = unlimited('tpm');
const unlimitedRpm = unlimited('rpm');

/**
 * ThrottlerGuard with a key's name as the tracker and OpenAI's rate-limit answer: headers
 * `x-ratelimit-limit-requests` / `-remaining-` / `-reset-` (and `-tokens`) on every limited
 * call, 429 `rate_limit_exceeded` with `Retry-After` when a window is used up.
 */
@Injectable()
export class KeyThrottlerGuard extends ThrottlerGuard {
  /**
   * Both throttlers' `skipIf` at once: a request neither limits (not a model call, no key, a key
   * without `rpm` and `tpm`) passes before each throttler reads its route metadata.
   */
  protected override shouldSkip(context: ExecutionContext): Promise<boolean> {
    return Promise.resolve(unlimitedTpm(context) && unlimitedRpm(context));
  }

  protected override async handleRequest(props: ThrottlerRequest): Promise<boolean> {
    const { context, limit, ttl, throttler } = props;
    const { req, res } = this.getRequestResponse(context);
    const name = throttler.name ?? REQUESTS;
    const key = keyOf(req as FastifyRequest)!;
    const record =
      name === TOKENS && this.storageService instanceof KeyThrottlerStorage
        ? await this.holdTokens(this.storageService, req as FastifyRequest, res, key.name, limit)
        : await this.storageService.increment(throttlerKey(name, key.name), ttl, limit, ttl, name);
    const used = record.totalHits;
    this.setResponseHeader(res, `x-ratelimit-limit-${name}`, limit);
    this.setResponseHeader(res, `x-ratelimit-remaining-${name}`, Math.max(0, limit - used));
    this.setResponseHeader(res, `x-ratelimit-reset-${name}`, resetText(record.timeToExpire));
    if (record.isBlocked) {
      throw new RateLimitExceededException(key.name, name, limit, record.timeToBlockExpire);
    }
    return true;
  }

  /**
   * Holds the request's worst case in its key's tpm window (refused once the window is full),
   * given back when the request ends without having reported what it used.
   */
  private async holdTokens(
    storage: KeyThrottlerStorage,
    request: FastifyRequest,
    response: unknown,
    keyName: string,
    tpm: number,
  ): Promise<{
    totalHits: number;
    timeToExpire: number;
    isBlocked: boolean;
    timeToBlockExpire: number;
  }> {
    const tokens = worstCaseTokens(request, storage.reserveOutputTokens);
    const count = await storage.reserveTokens(request, keyName, tokens, tpm);
    if (count.added) {
      (response as { raw: ServerResponse }).raw.once('close', () =>
        storage.releaseTokensOf(request),
      );
    }
    const seconds = Math.ceil(count.resetMs / 1000);
    return {
      totalHits: count.total,
      timeToExpire: seconds,
      isBlocked: !count.added,
      timeToBlockExpire: seconds,
    };
  }
}

/**
 * The guard's 429 for a model call whose key has used up its tpm or rpm window already, known
 * before the body is read (nothing is counted: the guard counts the request if it gets there),
 * with the `x-ratelimit-*` headers of that window.
 */
export function usedUpLimit(storage: KeyThrottlerStorage): HeadRefusal {
  return (request, reply) => {
    const key = keyOf(request);
    if (request.method !== 'POST' || !key?.client) return;
    const used = storage.usedUpWindow(key.name, key.client);
    if (!used) return;
    void reply.headers({
      [`x-ratelimit-limit-${used.throttler}`]: String(used.limit),
      [`x-ratelimit-remaining-${used.throttler}`]: '0',
      [`x-ratelimit-reset-${used.throttler}`]: resetText(used.seconds),
    });
    return new RateLimitExceededException(key.name, used.throttler, used.limit, used.seconds);
  };
}

/** 429 `rate_limit_exceeded` with `Retry-After`: a key's `rpm` or `tpm` window is used up. */
export class RateLimitExceededException extends HttpException {
  constructor(keyName: string, throttler: string, limit: number, secondsLeft: number) {
    const seconds = Math.max(1, secondsLeft);
    super(
      {
        message:
          `Rate limit reached for API key '${keyName}': ${limit} ${throttler} per minute. ` +
          `Try again in ${seconds}s, or ask the gateway operator for a higher ${throttler === TOKENS ? 'tpm' : 'rpm'}.`,
        type: throttler,
        code: 'rate_limit_exceeded',
        headers: { 'retry-after': String(seconds) },
      },
      HttpStatus.TOO_MANY_REQUESTS,
    );
  }
}

/** OpenAI's spelling of a reset time: `45s`, `1m0s`. */
export function resetText(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  return minutes > 0 ? `${minutes}m${seconds % 60}s` : `${seconds}s`;
}
