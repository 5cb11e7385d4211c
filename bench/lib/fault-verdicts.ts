import type { Outcome } from './fault-client.js';
import { UPSTREAM_KEY } from './fault-upstreams.js';

/**
 * How the fault bench grades what a caller got:
 * - pass: a full, correct answer within the scenario's bound (after failover, if need be);
 * - safe: a clear error (status and body with a message), nothing truncated reported as success,
 *   no hang;
 * - partial: an answer or error, but late beyond the bound, or degraded;
 * - fail: a hang, a 500 or a stack trace, a truncated answer reported as success, a secret in
 *   what the caller saw, or a model blamed for the caller's mistake.
 */
export type Grade = 'pass' | 'safe' | 'partial' | 'fail';

export interface Verdict {
  grade: Grade;
  detail: string;
}

export const verdict = (grade: Grade, detail: string): Verdict => ({ grade, detail });

const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The faults that fail any scenario, whatever it expected; undefined when none. */
export function brokenRules(outcome: Outcome): Verdict | undefined {
  if (outcome.hung) return verdict('fail', `hang: nothing ended the call in ${secs(outcome.ms)}`);
  if (outcome.seen.includes(UPSTREAM_KEY) || outcome.seen.includes('UPSTREAM-SECRET')) {
    return verdict('fail', 'the upstream API key reached the caller');
  }
  if (/\n\s+at .+:\d+:\d+|node_modules|\.ts:\d+/.test(outcome.seen)) {
    return verdict('fail', 'a stack trace reached the caller');
  }
  if (outcome.error?.status === 500) {
    return verdict('fail', `500: ${outcome.error.message}`);
  }
  return undefined;
}

const describeError = (outcome: Outcome) => {
  const error = outcome.error!;
  const where = error.midStream ? 'error event after the stream began' : `HTTP ${error.status}`;
  const cut = process.env.BENCH_FAULTS_FULL ? Infinity : 90;
  const message =
    error.message.length > cut ? `${error.message.slice(0, cut - 3)}...` : error.message;
  return `${where} ${error.code ?? error.type ?? 'no code'} in ${secs(outcome.ms)}: "${message}"`;
};

/** A clear error: a status or a mid-stream error event, with a message. */
const isClear = (outcome: Outcome) =>
  outcome.error !== undefined &&
  outcome.error.message.trim().length > 0 &&
  (outcome.error.midStream || (outcome.error.status ?? 0) >= 400);

/**
 * For a scenario where an answer is possible: pass for one of `answers`, in time, from one of
 * `models` (when given); safe for a clear error instead.
 */
export function gradeAnswer(
  outcome: Outcome,
  answers: string[],
  boundMs: number,
  models?: string[],
): Verdict {
  const broken = brokenRules(outcome);
  if (broken) return broken;
  if (outcome.error) {
    if (!isClear(outcome)) return verdict('fail', `unclear error: ${outcome.error.message}`);
    return verdict(outcome.ms <= boundMs ? 'safe' : 'partial', describeError(outcome));
  }
  if (!answers.includes(outcome.text) || outcome.finish !== 'stop') {
    return verdict(
      'fail',
      `reported as success: ${JSON.stringify(outcome.text.slice(0, 60))} (finish ${String(outcome.finish)})`,
    );
  }
  const by = `answered by ${outcome.model ?? '?'} in ${secs(outcome.ms)}`;
  if (outcome.ms > boundMs) return verdict('partial', `${by}, over the ${secs(boundMs)} bound`);
  if (models && !models.includes(outcome.model ?? '')) {
    return verdict('partial', `${by}, expected ${models.join(' or ')}`);
  }
  return verdict('pass', by);
}

/**
 * For a scenario where no answer is possible: safe for a clear error in time (with one of
 * `statuses` when given), partial when late or another status.
 */
export function gradeError(
  outcome: Outcome,
  boundMs: number,
  statuses?: number[],
  answers: string[] = [],
): Verdict {
  const broken = brokenRules(outcome);
  if (broken) return broken;
  if (!outcome.error) {
    if (answers.includes(outcome.text) && outcome.finish === 'stop') {
      return verdict('pass', `answered by ${outcome.model ?? '?'} in ${secs(outcome.ms)}`);
    }
    return verdict(
      'fail',
      `reported as success: ${JSON.stringify(outcome.text.slice(0, 60))} (finish ${String(outcome.finish)})`,
    );
  }
  if (!isClear(outcome)) return verdict('fail', `unclear error: ${outcome.error.message}`);
  if (outcome.ms > boundMs) return verdict('partial', `${describeError(outcome)}, over the bound`);
  if (statuses && !statuses.includes(outcome.error.status ?? 0)) {
    return verdict('partial', `${describeError(outcome)}, expected ${statuses.join('/')}`);
  }
  return verdict('safe', describeError(outcome));
}

/** The worse of two verdicts (fail > partial > safe > pass), details joined. */
export function worse(a: Verdict, b: Verdict): Verdict {
  const rank: Record<Grade, number> = { pass: 0, safe: 1, partial: 2, fail: 3 };
  const grade = rank[a.grade] >= rank[b.grade] ? a.grade : b.grade;
  return verdict(grade, `${a.detail}; then ${b.detail}`);
}
