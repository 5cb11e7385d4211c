/**
 * Faults the fake provider injects, chosen by the model name (`gpt-fault-503`) or at runtime
 * (`provider.setFault(model, 'fault-503')`). The fault spec runs from `fault-` to the end of the
 * model name, so other markers (`tools`, `parallel-tools`, `no-prefill`) go before it.
 */
export type FaultBehaviour =
  /** Answer with this HTTP status and the dialect's error body (401 echoes the key sent). */
  | { type: 'status'; status: number; retryAfter?: RetryAfterHint }
  /** Destroy the connection before any response header. */
  | { type: 'reset' }
  /** Read the request and never answer. */
  | { type: 'hang' }
  /** Send headers at once, then wait `ms` before the first token (non-stream: the whole answer). */
  | { type: 'slow-first-token'; ms: number }
  /** Stream `tokens` tokens, then destroy the connection: no finish reason, no terminator. */
  | { type: 'cut-after'; tokens: number }
  /** Stream `tokens` tokens, then go silent with the connection open. */
  | { type: 'stall-after'; tokens: number }
  /** Stream `tokens` tokens, then an in-stream error event, then end. */
  | { type: 'error-after'; tokens: number }
  /** One unparseable SSE chunk after the first token; the rest of the stream is intact. */
  | { type: 'malformed-chunk' }
  /** A complete stream (finish reason, usage) without `data: [DONE]` / `message_stop`. */
  | { type: 'no-done' }
  /** Like `no-done`, but the connection then stays open: a client must not wait for more. */
  | { type: 'no-done-open' }
  /** HTTP 400, the dialect's "prompt too long" error (`context_length_exceeded`). */
  | { type: 'context-length' }
  /** HTTP 400, the dialect's content-policy error (`content_filter`). */
  | { type: 'content-filter' }
  /** HTTP 200, a short answer ending with finish_reason `content_filter` (Anthropic: `refusal`). */
  | { type: 'content-filter-finish' };

export interface RetryAfterHint {
  /** `s` → `Retry-After: n`; `ms` → `retry-after-ms: n`; `date` → `Retry-After: <HTTP date now+n s>`. */
  unit: 's' | 'ms' | 'date';
  value: number;
}

export type Fault = FaultBehaviour & {
  /** The fault hits the first `times` requests to the model, then it answers normally. */
  times?: number;
  /** The spec it was parsed from, e.g. `fault-500-once`. */
  spec: string;
};

export class UnknownFaultError extends Error {}

const BEHAVIOURS: Array<[RegExp, (m: RegExpMatchArray) => FaultBehaviour]> = [
  [
    /^(\d{3})(?:-retry-after(?:-(ms|date))?-(\d+))?$/,
    (m) => ({
      type: 'status',
      status: Number(m[1]),
      ...(m[3] === undefined
        ? {}
        : { retryAfter: { unit: (m[2] ?? 's') as RetryAfterHint['unit'], value: Number(m[3]) } }),
    }),
  ],
  [/^reset$/, () => ({ type: 'reset' })],
  [/^hang$/, () => ({ type: 'hang' })],
  [/^slow-first-token-(\d+)$/, (m) => ({ type: 'slow-first-token', ms: Number(m[1]) })],
  [/^cut-after-(\d+)$/, (m) => ({ type: 'cut-after', tokens: Number(m[1]) })],
  [/^stall-after-(\d+)$/, (m) => ({ type: 'stall-after', tokens: Number(m[1]) })],
  [/^error-after-(\d+)$/, (m) => ({ type: 'error-after', tokens: Number(m[1]) })],
  [/^malformed-chunk$/, () => ({ type: 'malformed-chunk' })],
  [/^no-done$/, () => ({ type: 'no-done' })],
  [/^no-done-open$/, () => ({ type: 'no-done-open' })],
  [/^context-length$/, () => ({ type: 'context-length' })],
  [/^content-filter$/, () => ({ type: 'content-filter' })],
  [/^content-filter-finish$/, () => ({ type: 'content-filter-finish' })],
];

/** The documented fault names, for error messages and the README. */
export const FAULT_NAMES = [
  'fault-<status>',
  'fault-<status>-retry-after-<s>',
  'fault-<status>-retry-after-ms-<ms>',
  'fault-<status>-retry-after-date-<s>',
  'fault-reset',
  'fault-hang',
  'fault-slow-first-token-<ms>',
  'fault-cut-after-<n>',
  'fault-stall-after-<n>',
  'fault-error-after-<n>',
  'fault-malformed-chunk',
  'fault-no-done',
  'fault-no-done-open',
  'fault-context-length',
  'fault-content-filter',
  'fault-content-filter-finish',
] as const;

/**
 * Parses a fault spec (`fault-429-retry-after-1`, `fault-500-once`, `503-times-2`: the `fault-`
 * prefix is optional). Any fault may end in `-once` or `-times-<n>`.
 * @throws UnknownFaultError naming the spec and the known faults.
 */
export function parseFault(spec: string): Fault {
  const normalized = spec.startsWith('fault-') ? spec : `fault-${spec}`;
  let body = normalized.slice('fault-'.length);
  let times: number | undefined;
  const once = /-once$/.exec(body);
  const repeated = /-times-(\d+)$/.exec(body);
  if (once) {
    times = 1;
    body = body.slice(0, once.index);
  } else if (repeated) {
    times = Number(repeated[1]);
    body = body.slice(0, repeated.index);
  }
  for (const [pattern, build] of BEHAVIOURS) {
    const match = pattern.exec(body);
    if (match) {
      const behaviour = build(match);
      return times === undefined
        ? { ...behaviour, spec: normalized }
        : { ...behaviour, times, spec: normalized };
    }
  }
  throw new UnknownFaultError(
    `Unknown fault '${normalized}'. Known faults (optionally ending in -once or -times-<n>): ${FAULT_NAMES.join(', ')}`,
  );
}

/**
 * The fault a model name asks for (everything from `fault-` on, where `fault` starts the name
 * or follows a non-alphanumeric character, so `default-model` has none), or undefined.
 */
export function faultInModelName(model: string): Fault | undefined {
  const match = /(?:^|[^a-z0-9])(fault-.*)$/i.exec(model);
  return match ? parseFault(match[1]!) : undefined;
}
