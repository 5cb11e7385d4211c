import { performance } from 'node:perf_hooks';

export interface LoadOptions {
  /** `http://host:port/v1` of an OpenAI-compatible gateway. */
  baseURL: string;
  model: string;
  text: string;
  requests: number;
  concurrency: number;
  /** Every other request streams when 0.5; 0 never, 1 always. */
  streamShare: number;
  /** A request not settled by then counts as a hang (and is aborted). */
  boundMs: number;
  /** A full answer's text: anything else with status 200 is a truncated or garbled success. */
  answer: RegExp;
}

export interface LoadResult {
  /** Whole answers: status 200, the full text, finish reason stop, usage; streams end with [DONE]. */
  answers: number;
  /** Clear errors by kind: `HTTP <status>` with OpenAI's error JSON, or `SSE error event`. */
  errors: Map<string, number>;
  /** Clear errors by message, numbers masked (`N`), so alike errors count together. */
  reasons: Map<string, number>;
  /** Requests that did not settle within the bound. */
  hangs: number;
  /** Successes that were not whole answers, or errors that were not clear: must be 0. */
  bad: number;
  badSamples: string[];
  durationMs: number;
  /** Per-request latency in ms, sorted. */
  latencies: number[];
}

type Outcome =
  | { kind: 'answer' }
  | { kind: 'error'; label: string; message: string }
  | { kind: 'bad'; why: string };

/** `requests` requests, `concurrency` at a time, each judged by what the client received. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const result: LoadResult = {
    answers: 0,
    errors: new Map(),
    reasons: new Map(),
    hangs: 0,
    bad: 0,
    badSamples: [],
    durationMs: 0,
    latencies: [],
  };
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < options.requests) {
      const index = next++;
      const stream = (index * options.streamShare) % 1 >= 1 - options.streamShare;
      const begin = performance.now();
      const signal = AbortSignal.timeout(options.boundMs);
      let outcome: Outcome;
      try {
        outcome = await oneRequest(options, stream, signal);
      } catch (error) {
        if (signal.aborted) {
          result.hangs++;
          continue;
        }
        outcome = { kind: 'bad', why: `client error ${String(error)}` };
      }
      result.latencies.push(performance.now() - begin);
      if (outcome.kind === 'answer') result.answers++;
      else if (outcome.kind === 'error') {
        result.errors.set(outcome.label, (result.errors.get(outcome.label) ?? 0) + 1);
        const reason = outcome.message.replace(/\d+/g, 'N');
        result.reasons.set(reason, (result.reasons.get(reason) ?? 0) + 1);
      } else {
        result.bad++;
        if (result.badSamples.length < 5) result.badSamples.push(outcome.why);
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  result.durationMs = performance.now() - started;
  result.latencies.sort((a, b) => a - b);
  return result;
}

async function oneRequest(
  options: LoadOptions,
  stream: boolean,
  signal: AbortSignal,
): Promise<Outcome> {
  const response = await fetch(`${options.baseURL}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      model: options.model,
      messages: [{ role: 'user', content: options.text }],
      stream,
    }),
    signal,
  });
  const body = await response.text();
  if (response.status !== 200) return clearError(response.status, body);
  return stream ? judgeStream(body, options.answer) : judgeCompletion(body, options.answer);
}

function clearError(status: number, body: string): Outcome {
  const message = parse(body)?.error?.message;
  return typeof message === 'string' && message.length > 0
    ? { kind: 'error', label: `HTTP ${status}`, message }
    : { kind: 'bad', why: `HTTP ${status} without an error message: ${body.slice(0, 120)}` };
}

function judgeCompletion(body: string, answer: RegExp): Outcome {
  const json = parse(body);
  const choice = json?.choices?.[0];
  const text = choice?.message?.content;
  if (typeof text === 'string' && answer.test(text) && choice.finish_reason === 'stop') {
    if (json.usage?.total_tokens > 0) return { kind: 'answer' };
  }
  return { kind: 'bad', why: `200 but not a whole answer: ${body.slice(0, 160)}` };
}

function judgeStream(body: string, answer: RegExp): Outcome {
  const events = body
    .split('\n\n')
    .map((block) => block.trim())
    .filter((block) => block.startsWith('data: '))
    .map((block) => block.slice('data: '.length));
  const done = events.at(-1) === '[DONE]';
  const chunks = events.filter((data) => data !== '[DONE]').map(parse);
  if (!done) {
    const last = chunks.at(-1);
    if (typeof last?.error?.message === 'string' && events.indexOf('[DONE]') === -1) {
      return { kind: 'error', label: 'SSE error event', message: last.error.message };
    }
    return { kind: 'bad', why: `stream ended without [DONE] or error: ${body.slice(-160)}` };
  }
  const text = chunks.map((chunk) => chunk?.choices?.[0]?.delta?.content ?? '').join('');
  const final = chunks.find((chunk) => chunk?.choices?.[0]?.finish_reason);
  if (
    answer.test(text) &&
    final?.choices[0].finish_reason === 'stop' &&
    final.usage?.total_tokens > 0 &&
    !chunks.some((chunk) => chunk?.error)
  ) {
    return { kind: 'answer' };
  }
  return { kind: 'bad', why: `stream with [DONE] but not a whole answer: ${text.slice(0, 160)}` };
}

// oxlint-disable-next-line typescript/no-explicit-any -- wire JSON, checked field by field
function parse(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
