import { isAbortError } from './abort-error.js';
import { StreamInterruptedException } from './stream-interrupted.exception.js';
import { summarizeError } from './error-summary.js';
import {
  InvalidConfigurationException,
  InvalidDecisionResponseException,
  ModelRouterException,
  NoMatchingModelFoundException,
} from './exceptions.js';
import { BudgetExceededException } from './budget-exceeded.exception.js';
import { ContextLengthExceededException } from './context-length-exceeded.exception.js';
import { InvalidChatRequestException } from './invalid-chat-request.exception.js';
import { ProviderException } from './provider-exception.js';
import { ModelTimeoutException } from './timeout-exception.js';
import { uniformRefusal } from './uniform-refusal.js';
import { UnknownRouterException } from './unknown-router.exception.js';
import { UnpricedModelException } from './unpriced-model.exception.js';

/** OpenAI's error types, which every HTTP surface of the project uses. */
export type ErrorAnswerType =
  | 'invalid_request_error'
  | 'rate_limit_error'
  | 'server_error'
  | 'request_cancelled'
  | 'budget_exceeded';

/** How an error of the library is answered to a client, over any transport. */
export interface ErrorAnswer {
  /** The class of the error the answer describes (a uniform refusal's, when every model refused). */
  name: string;
  status: number;
  type: ErrorAnswerType;
  /** A stable, machine-readable reason (`model_not_found`, `models_cooling_down`…), or null. */
  code: string | null;
  /** The request field at fault, when there is one. */
  param: string | null;
  /** When to try again (a 429's or a cooldown's wait); sent as `Retry-After`. */
  retryAfterMs?: number;
  /** What the client can act on. Provider and library messages carry no keys. */
  message: string;
  /** Machine-readable facts beside the message (a spent budget's name, limit and reset). */
  details?: Record<string, string | number>;
}

/**
 * The one error table of the project: what status, type and code any error of the library means
 * to a client. ModelRouterExceptionFilter and the gateway's OpenAI error bodies both answer with
 * it. Errors that are not the library's are answered by class only, so internals never leak.
 */
export function errorAnswer(error: unknown): ErrorAnswer {
  if (error instanceof NoMatchingModelFoundException) {
    // every model refused the request alike: answer the refusal, not an outage to retry
    const refusal = error.retryAfterMs === undefined ? uniformRefusal(error) : undefined;
    if (refusal) {
      const answered = fromProvider(refusal);
      return { name: refusal.name, ...answered, message: boundedMessage(answered.message) };
    }
  }
  const name = error instanceof Error ? error.name : typeof error;
  const answered = answerFor(error);
  return { name, ...answered, message: boundedMessage(answered.message) };
}

/** Longest message of an error answer: messages quote names and texts that clients chose. */
export const MAX_ANSWER_MESSAGE_LENGTH = 4000;

/** `message` cut to `MAX_ANSWER_MESSAGE_LENGTH` characters, saying that it was cut. */
export function boundedMessage(message: string): string {
  if (message.length <= MAX_ANSWER_MESSAGE_LENGTH) return message;
  return `${message.slice(0, MAX_ANSWER_MESSAGE_LENGTH)}… (${message.length - MAX_ANSWER_MESSAGE_LENGTH} more characters)`;
}

function answerFor(error: unknown): Omit<ErrorAnswer, 'name'> {
  if (error instanceof UnknownRouterException) {
    return answer(404, 'invalid_request_error', error.message, 'model_not_found', 'model');
  }
  if (error instanceof InvalidChatRequestException) {
    return answer(400, 'invalid_request_error', error.message, null, 'messages');
  }
  if (error instanceof NoMatchingModelFoundException) return exhausted(error);
  if (error instanceof ContextLengthExceededException) {
    return answer(
      400,
      'invalid_request_error',
      error.message,
      'context_length_exceeded',
      'messages',
    );
  }
  if (error instanceof BudgetExceededException) {
    return {
      ...answer(429, 'budget_exceeded', error.message, 'budget_exceeded'),
      retryAfterMs: error.retryAfterMs,
      details: {
        budget: error.budget,
        limit_usd: error.limitUsd,
        spent_usd: error.spentUsd,
        resets_at: new Date(error.resetsAt).toISOString(),
      },
    };
  }
  if (error instanceof UnpricedModelException) {
    return {
      ...answer(403, 'invalid_request_error', error.message, 'model_unpriced', 'model'),
      details: { budget: error.budget, models: error.models.join(', ') },
    };
  }
  if (error instanceof ProviderException) return fromProvider(error);
  if (error instanceof ModelTimeoutException) {
    return answer(504, 'server_error', error.message, 'timeout');
  }
  if (error instanceof StreamInterruptedException) {
    return answer(502, 'server_error', interruptedMessage(error), 'stream_interrupted');
  }
  if (error instanceof InvalidDecisionResponseException) {
    return answer(502, 'server_error', error.message, 'invalid_decision');
  }
  if (error instanceof InvalidConfigurationException) {
    return answer(500, 'server_error', error.message, 'invalid_configuration');
  }
  if (error instanceof ModelRouterException) return answer(500, 'server_error', error.message);
  if (isAbortError(error)) {
    return answer(499, 'request_cancelled', 'The request was cancelled', 'cancelled');
  }
  return answer(
    500,
    'server_error',
    `Internal error (${error instanceof Error ? error.name : typeof error})`,
  );
}

/** Every model cooling down → 503 with when one is back; else 502 (504 when the last timed out). */
function exhausted(error: NoMatchingModelFoundException): Omit<ErrorAnswer, 'name'> {
  if (error.retryAfterMs !== undefined) {
    return {
      ...answer(503, 'server_error', error.message, 'models_cooling_down'),
      retryAfterMs: error.retryAfterMs,
    };
  }
  const last = error.errors[error.errors.length - 1];
  const timedOut =
    last instanceof ModelTimeoutException ||
    (last instanceof ProviderException && last.kind === 'timeout');
  const detail = last instanceof Error ? ` Last error: ${last.name}: ${last.message}` : '';
  return answer(
    timedOut ? 504 : 502,
    'server_error',
    `${error.message}${detail}`,
    'all_models_failed',
  );
}

function fromProvider(error: ProviderException): Omit<ErrorAnswer, 'name'> {
  switch (error.kind) {
    case 'invalid-request':
      return answer(400, 'invalid_request_error', error.message, error.code ?? null);
    case 'context-length':
      return answer(
        400,
        'invalid_request_error',
        error.message,
        'context_length_exceeded',
        'messages',
      );
    case 'content-policy':
      return answer(400, 'invalid_request_error', error.message, 'content_policy_violation');
    case 'rate-limited':
      return {
        ...answer(429, 'rate_limit_error', error.message, error.code ?? 'rate_limit_exceeded'),
        ...(error.retryAfterMs !== undefined ? { retryAfterMs: error.retryAfterMs } : {}),
      };
    case 'timeout':
      return answer(504, 'server_error', error.message, 'timeout');
    default:
      return answer(502, 'server_error', error.message, error.code ?? null);
  }
}

/** Why the answer is incomplete and what to do, without the router's internal options. */
function interruptedMessage(error: StreamInterruptedException): string {
  const { name, message } = summarizeError(error.cause);
  return (
    `The answer broke off after ${error.partialLength} characters: model '${error.model}' ` +
    `failed (${name}: ${message}) and no other model could complete it. Retry the request.`
  );
}

function answer(
  status: number,
  type: ErrorAnswerType,
  message: string,
  code: string | null = null,
  param: string | null = null,
): Omit<ErrorAnswer, 'name'> {
  return { status, type, code, param, message };
}

/** `Retry-After` in whole seconds, at least 1. */
export function retryAfterSeconds(retryAfterMs: number): string {
  return String(Math.max(1, Math.ceil(retryAfterMs / 1000)));
}
