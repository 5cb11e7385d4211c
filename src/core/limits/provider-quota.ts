import type { ChatResponse } from '../chat/response.js';
import { parseHttpDate } from '../resilience/retry-after.js';
import { attributeKey } from '../chat/attribute-key.js';

/** Response attribute where a provider puts the rate-limit headers of its answer. */
export const RATE_LIMIT_ATTRIBUTE = 'model_router_rate_limit';
export const rateLimitAttribute = attributeKey(
  RATE_LIMIT_ATTRIBUTE,
  (value: unknown): value is Record<string, string> => typeof value === 'object' && value !== null,
);

/** The headers providers send about what is left of a quota. */
export const RATE_LIMIT_HEADERS = [
  'x-ratelimit-remaining-requests',
  'x-ratelimit-remaining-tokens',
  'x-ratelimit-reset-requests',
  'x-ratelimit-reset-tokens',
  'anthropic-ratelimit-requests-remaining',
  'anthropic-ratelimit-requests-reset',
  'anthropic-ratelimit-tokens-remaining',
  'anthropic-ratelimit-tokens-reset',
  'anthropic-ratelimit-input-tokens-remaining',
  'anthropic-ratelimit-input-tokens-reset',
  'anthropic-ratelimit-output-tokens-remaining',
  'anthropic-ratelimit-output-tokens-reset',
] as const;

/** The response with the provider's rate-limit headers in its attributes. */
export function withRateLimit(
  response: ChatResponse,
  headers: Record<string, string>,
): ChatResponse {
  return {
    ...response,
    aiMessage: {
      ...response.aiMessage,
      attributes: { ...response.aiMessage.attributes, ...rateLimitAttribute.entry(headers) },
    },
  };
}

type HeaderSource = { get(name: string): string | null } | Record<string, unknown>;

/** The rate-limit headers of a response, lower-cased; undefined when it sent none. */
export function pickRateLimitHeaders(
  headers: HeaderSource | undefined,
): Record<string, string> | undefined {
  if (!headers) return undefined;
  const read =
    typeof (headers as { get?: unknown }).get === 'function'
      ? (name: string) => (headers as { get(name: string): string | null }).get(name)
      : (name: string) => {
          const value = (headers as Record<string, unknown>)[name];
          return typeof value === 'string' ? value : null;
        };
  let picked: Record<string, string> | undefined;
  for (const name of RATE_LIMIT_HEADERS) {
    const value = read(name);
    if (value !== null && value !== undefined) (picked ??= {})[name] = value;
  }
  return picked;
}

/**
 * Epoch ms until which the quota those headers describe is exhausted (a remaining count of 0),
 * or undefined while some is left. OpenAI's resets are durations (`1s`, `6m0s`, `20ms`),
 * Anthropic's are RFC 3339 times.
 */
export function exhaustedUntil(headers: Record<string, string>, now: number): number | undefined {
  let until: number | undefined;
  const pairs: [string, string][] = [
    ['x-ratelimit-remaining-requests', 'x-ratelimit-reset-requests'],
    ['x-ratelimit-remaining-tokens', 'x-ratelimit-reset-tokens'],
    ['anthropic-ratelimit-requests-remaining', 'anthropic-ratelimit-requests-reset'],
    ['anthropic-ratelimit-tokens-remaining', 'anthropic-ratelimit-tokens-reset'],
    ['anthropic-ratelimit-input-tokens-remaining', 'anthropic-ratelimit-input-tokens-reset'],
    ['anthropic-ratelimit-output-tokens-remaining', 'anthropic-ratelimit-output-tokens-reset'],
  ];
  for (const [remaining, reset] of pairs) {
    const left = Number(headers[remaining]);
    if (headers[remaining] === undefined || !Number.isFinite(left) || left > 0) continue;
    // exhausted without a readable reset: assume a minute, the usual window
    const at = resetTime(headers[reset], now) ?? now + 60_000;
    until = Math.max(until ?? 0, at);
  }
  return until;
}

function resetTime(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const duration = parseDuration(value);
  if (duration !== undefined) return now + duration;
  const date = Date.parse(value);
  if (Number.isFinite(date)) return date;
  const http = parseHttpDate(value);
  return http ?? undefined;
}

/** `6m0s`, `1.5s`, `20ms`, `1h2m` → ms; a bare number is seconds. */
function parseDuration(value: string): number | undefined {
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  const pattern = /(\d+(?:\.\d+)?)(ms|h|m|s)/g;
  let total = 0;
  let consumed = 0;
  for (const match of text.matchAll(pattern)) {
    const amount = Number(match[1]);
    const unit = match[2]!;
    total += amount * (unit === 'h' ? 3_600_000 : unit === 'm' ? 60_000 : unit === 's' ? 1000 : 1);
    consumed += match[0].length;
  }
  return consumed > 0 && consumed === text.length ? Math.ceil(total) : undefined;
}
