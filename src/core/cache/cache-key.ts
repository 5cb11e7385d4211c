import { createHash } from 'node:crypto';
import type { ChatMessage, ContentPart } from '../chat/messages.js';
import type { ChatRequest } from '../chat/request.js';

/** What a cache key is made of besides the request. */
export interface CacheKeyScope {
  /** The resolved router, or the model addressed directly. */
  target: string;
  /** The caller's partition (its API key or tenant); absent when answers are shared. */
  partition?: string;
}

/** The keys of one request, computed once per call. Never sent to a client. */
export interface CacheKeys {
  /** A hash of everything that changes the answer. */
  exact: string;
  /**
   * For semantic matching: a hash of everything but the last user message's text, which is
   * compared by meaning; absent when the last message is not a user message of plain text.
   */
  bucket?: string;
  /** The last user message's text, when `bucket` is set. */
  lastUserText?: string;
}

/** Bumped whenever the key's canonical form changes, so old entries are never read as new. */
const KEY_VERSION = 'v1';

/** The largest canonical request (UTF-16 code units) a key is computed for; larger is not cached. */
export const DEFAULT_MAX_KEY_INPUT = 256 * 1024;

/**
 * The request's keys, or undefined when its canonical form is larger than `maxInput` (a
 * request too large to cache is served and not stored). Every message (the system prompt
 * included) and every parameter (tools, tool choice, response format, temperature, top p,
 * max tokens, stop sequences, seed, penalties, logit bias, logprobs and whatever else a caller
 * set, but for `user` and `serviceTier`) goes into the exact key,
 * with the target and the partition: two requests share an entry only when nothing that could
 * change the answer differs.
 */
export function cacheKeys(
  request: ChatRequest,
  scope: CacheKeyScope,
  maxInput = DEFAULT_MAX_KEY_INPUT,
): CacheKeys | undefined {
  const head = `${KEY_VERSION}\u0000${scope.target}\u0000${scope.partition ?? ''}\u0000`;
  const parameters = stableJson(answerParameters(request.parameters));
  const messages = stableJson(request.messages);
  if (head.length + parameters.length + messages.length > maxInput) return undefined;
  const exact = sha256(`${head}${parameters}\u0000${messages}`);
  const last = request.messages.at(-1);
  const lastUserText = last === undefined ? undefined : plainUserText(last);
  if (lastUserText === undefined) return { exact };
  // the same conversation up to its last question, whose text is compared by meaning
  const earlier = stableJson(request.messages.slice(0, -1));
  const bucket = sha256(`${head}semantic\u0000${parameters}\u0000${earlier}`);
  return { exact, bucket, lastUserText };
}

/**
 * Parameters that say only who asks or how fast to serve it (`user`, `serviceTier`) never change
 * the answer: left out, so a shared entry serves callers that name their end users too.
 */
const NOT_ANSWER_CHANGING = new Set(['user', 'serviceTier']);

function answerParameters(parameters: ChatRequest['parameters']): object {
  if (!parameters) return {};
  if (parameters.user === undefined && parameters.serviceTier === undefined) return parameters;
  return Object.fromEntries(
    Object.entries(parameters).filter(([key]) => !NOT_ANSWER_CHANGING.has(key)),
  );
}

/** A user message's text when it is plain text only (no media, no name). */
function plainUserText(message: ChatMessage): string | undefined {
  if (message.role !== 'user' || message.name !== undefined) return undefined;
  if (typeof message.content === 'string') return message.content;
  if (!message.content.every((part: ContentPart) => part.type === 'text')) return undefined;
  return message.content.map((part) => (part as { text: string }).text).join('\n');
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}

/**
 * JSON with object keys sorted, so the same request written in another key order has the same
 * key; `undefined` members are left out, as JSON.stringify leaves them.
 */
export function stableJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  const record = value as Record<string, unknown>;
  const parts: string[] = [];
  for (const key of Object.keys(record).toSorted()) {
    const member = record[key];
    if (member === undefined || typeof member === 'function') continue;
    parts.push(`${JSON.stringify(key)}:${stableJson(member)}`);
  }
  return `{${parts.join(',')}}`;
}
