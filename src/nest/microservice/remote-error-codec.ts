import { isAbortError } from '../../core/chat/abort.js';
import {
  InvalidConfigurationException,
  InvalidDecisionResponseException,
  ModelRouterException,
  NoMatchingModelFoundException,
  RoutingException,
} from '../../core/errors/exceptions.js';
import { BudgetExceededException } from '../../core/errors/budget-exceeded.exception.js';
import { ContextLengthExceededException } from '../../core/errors/context-length-exceeded.exception.js';
import { InvalidChatRequestException } from '../../core/errors/invalid-chat-request.exception.js';
import { ProviderException } from '../../core/errors/provider-exception.js';
import { ModelTimeoutException, type TimeoutPhase } from '../../core/errors/timeout-exception.js';
import {
  classifyError,
  DEFAULT_DISPOSITIONS,
  type ErrorKind,
} from '../../core/resilience/error-classification.js';
import { scrubCredentials } from '../../core/observability/scrub-credentials.js';
import { UnknownRouterException } from '../../core/errors/unknown-router.exception.js';
import { UnpricedModelException } from '../../core/errors/unpriced-model.exception.js';
import { RemoteModelRouterException } from './remote-model-router.exception.js';

/**
 * An error as it crosses a transport: plain data, never a stack or a cause chain, its message
 * scrubbed of credentials and bounded. The fields after `errors` apply to some classes only.
 */
export interface RemoteErrorData {
  /** The class name: `NoMatchingModelFoundException`, `ProviderException`… */
  name: string;
  message: string;
  kind?: ErrorKind;
  /** The provider's HTTP status (ProviderException). */
  status?: number;
  retryAfterMs?: number;
  /** NoMatchingModelFoundException: each attempt's error, in order. */
  errors?: RemoteErrorData[];
  provider?: string;
  model?: string;
  code?: string;
  phase?: TimeoutPhase;
  timeoutMs?: number;
  requested?: string;
  known?: string[];
  /** BudgetExceededException, UnpricedModelException. */
  budget?: string;
  /** UnpricedModelException: the models without a price. */
  models?: string[];
  limitUsd?: number;
  spentUsd?: number;
  resetsAt?: number;
  /** ContextLengthExceededException. */
  promptTokens?: number;
  outputTokens?: number;
  largestContextWindow?: number;
}

export const MAX_ERROR_MESSAGE_LENGTH = 2_000;
/** Attempts listed per NoMatchingModelFoundException (a group tries each model at most once). */
export const MAX_NESTED_ERRORS = 32;
const MAX_NESTING = 3;
const MAX_NAME_LENGTH = 200;
const MAX_KNOWN_NAMES = 100;
const PHASES: readonly TimeoutPhase[] = ['attempt', 'first-token', 'idle', 'deadline'];

/** The data a thrown value crosses the transport as. */
export function toRemoteError(error: unknown, depth = 0): RemoteErrorData {
  const fields = (typeof error === 'object' && error !== null ? error : {}) as Record<
    string,
    unknown
  >;
  const data: RemoteErrorData = {
    name: boundedName(fields.name) ?? 'Error',
    message: boundedMessage(
      error instanceof Error || typeof fields.message === 'string'
        ? String(fields.message)
        : String(error),
    ),
    kind: isAbortError(error) ? 'aborted' : classifyError(error),
  };
  const status = fields.status;
  if (typeof status === 'number' && Number.isInteger(status) && status >= 100 && status <= 599) {
    data.status = status;
  }
  const retryAfterMs = fields.retryAfterMs;
  if (typeof retryAfterMs === 'number' && Number.isFinite(retryAfterMs) && retryAfterMs >= 0) {
    data.retryAfterMs = retryAfterMs;
  }
  if (error instanceof NoMatchingModelFoundException) {
    data.errors =
      depth < MAX_NESTING
        ? error.errors.slice(0, MAX_NESTED_ERRORS).map((inner) => toRemoteError(inner, depth + 1))
        : [];
  }
  if (error instanceof ProviderException) {
    data.provider = boundedName(error.provider) ?? 'unknown';
    const model = boundedName(error.model);
    if (model !== undefined) data.model = model;
    const code = boundedName(error.code);
    if (code !== undefined) data.code = code;
  }
  if (error instanceof ModelTimeoutException) {
    data.phase = error.phase;
    data.timeoutMs = error.timeoutMs;
  }
  if (error instanceof BudgetExceededException) {
    data.budget = boundedName(error.budget) ?? '';
    Object.assign(data, {
      limitUsd: error.limitUsd,
      spentUsd: error.spentUsd,
      resetsAt: error.resetsAt,
    });
  }
  if (error instanceof UnpricedModelException) {
    data.budget = boundedName(error.budget) ?? '';
    data.models = error.models
      .slice(0, MAX_KNOWN_NAMES)
      .map((name) => boundedName(name) ?? '')
      .filter((name) => name !== '');
  }
  if (error instanceof ContextLengthExceededException) {
    Object.assign(data, {
      promptTokens: error.promptTokens,
      outputTokens: error.outputTokens,
      largestContextWindow: error.largestContextWindow,
    });
  }
  if (error instanceof UnknownRouterException) {
    data.requested = boundedName(error.requested) ?? '';
    data.known = error.known
      .slice(0, MAX_KNOWN_NAMES)
      .map((name) => boundedName(name) ?? '')
      .filter((name) => name !== '');
  }
  return data;
}

/** Whether a value that came over a transport is error data of this codec. */
export function isRemoteErrorData(value: unknown): value is RemoteErrorData {
  if (typeof value !== 'object' || value === null) return false;
  const { name, message } = value as { name?: unknown; message?: unknown };
  return typeof name === 'string' && typeof message === 'string';
}

/**
 * The error `data` describes, rebuilt as the same library class (with its fields); any other
 * class becomes a RemoteModelRouterException naming it. An abort on the service's side (the
 * service shutting down) is not the local caller's abort: it comes back as a transient failure.
 */
export function fromRemoteError(data: RemoteErrorData, depth = 0): Error {
  const message = boundedMessage(data.message);
  const kind = kindOf(data.kind);
  const retryAfterMs = numberOf(data.retryAfterMs);
  const status = numberOf(data.status);
  switch (data.name) {
    case 'NoMatchingModelFoundException': {
      const errors = Array.isArray(data.errors) && depth < MAX_NESTING ? data.errors : [];
      return new NoMatchingModelFoundException(
        message,
        errors
          .slice(0, MAX_NESTED_ERRORS)
          .filter(isRemoteErrorData)
          .map((inner) => fromRemoteError(inner, depth + 1)),
        retryAfterMs !== undefined ? { retryAfterMs } : {},
      );
    }
    case 'ProviderException':
      return new ProviderException(message, {
        kind: kind ?? 'unknown',
        provider: stringOf(data.provider) ?? 'unknown',
        ...optional('model', stringOf(data.model)),
        ...optional('status', status),
        ...optional('code', stringOf(data.code)),
        ...optional('retryAfterMs', retryAfterMs),
      });
    case 'ModelTimeoutException': {
      const phase = PHASES.includes(data.phase as TimeoutPhase) ? data.phase! : 'attempt';
      return withMessage(new ModelTimeoutException(phase, numberOf(data.timeoutMs) ?? 0), message);
    }
    case 'UnknownRouterException':
      return new UnknownRouterException(
        message,
        stringOf(data.requested) ?? '',
        Array.isArray(data.known) ? data.known.filter((name) => typeof name === 'string') : [],
      );
    case 'InvalidChatRequestException':
      return new InvalidChatRequestException(message);
    case 'BudgetExceededException': {
      // the service's clock decided the wait: keep it as sent
      const resetsAt = numberOf(data.resetsAt) ?? 0;
      const rebuilt = new BudgetExceededException({
        budget: stringOf(data.budget) ?? '',
        limitUsd: numberOf(data.limitUsd) ?? 0,
        spentUsd: numberOf(data.spentUsd) ?? 0,
        resetsAt,
        now: resetsAt - (retryAfterMs ?? 0),
        models: [],
      });
      return withMessage(rebuilt, message);
    }
    case 'UnpricedModelException':
      return withMessage(
        new UnpricedModelException({
          budget: stringOf(data.budget) ?? '',
          models: Array.isArray(data.models)
            ? data.models.filter((name) => typeof name === 'string')
            : [],
        }),
        message,
      );
    case 'ContextLengthExceededException':
      return withMessage(
        new ContextLengthExceededException({
          promptTokens: numberOf(data.promptTokens) ?? 0,
          outputTokens: numberOf(data.outputTokens) ?? 0,
          largestContextWindow: numberOf(data.largestContextWindow) ?? 0,
          models: [],
        }),
        message,
      );
    case 'RoutingException':
      return new RoutingException(message);
    case 'InvalidConfigurationException':
      return new InvalidConfigurationException(message);
    case 'InvalidDecisionResponseException':
      return new InvalidDecisionResponseException(message);
    case 'ModelRouterException':
      return new ModelRouterException(message);
    case 'RemoteModelRouterException':
      // a chain of services: the farther one was unreachable, or failed with an unknown class
      return new RemoteModelRouterException(message, {
        kind: kind === undefined || kind === 'aborted' ? 'transient' : kind,
        ...optional('status', status),
        ...optional('code', stringOf(data.code)),
        ...optional('retryAfterMs', retryAfterMs),
      });
    default:
      return new RemoteModelRouterException(message, {
        kind: kind === undefined || kind === 'aborted' ? 'transient' : kind,
        remoteName: boundedName(data.name) ?? 'Error',
        ...optional('status', status),
        ...optional('code', stringOf(data.code)),
        ...optional('retryAfterMs', retryAfterMs),
      });
  }
}

/** Scrubbed of credentials and cut to MAX_ERROR_MESSAGE_LENGTH characters. */
export function boundedMessage(text: string): string {
  const scrubbed = scrubCredentials(text);
  return scrubbed.length > MAX_ERROR_MESSAGE_LENGTH
    ? `${scrubbed.slice(0, MAX_ERROR_MESSAGE_LENGTH - 1)}…`
    : scrubbed;
}

function boundedName(value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  const scrubbed = scrubCredentials(value);
  return scrubbed.length > MAX_NAME_LENGTH ? scrubbed.slice(0, MAX_NAME_LENGTH) : scrubbed;
}

function kindOf(value: unknown): ErrorKind | undefined {
  return typeof value === 'string' && value in DEFAULT_DISPOSITIONS
    ? (value as ErrorKind)
    : undefined;
}

function numberOf(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

/** The service's own wording (it names the model), on the class this side rebuilds. */
function withMessage<E extends Error>(error: E, message: string): E {
  error.message = message;
  return error;
}
