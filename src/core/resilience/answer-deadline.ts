import type { ChatResponse } from '../chat/response.js';
import type { Clock } from '../clock.js';
import { InvalidConfigurationException } from '../errors/exceptions.js';
import { resolveAdaptiveOptions, type AdaptiveDeadlineOptions } from './adaptive-deadline.js';
import { MAX_TIMER_MS } from './retry-policy.js';
import { QuantileCadence } from './quantile-cadence.js';
import { SharedLatencySketch, type SketchBinding } from './shared-latency-sketch.js';
import type { ResolvedTimeouts, TimeoutOptions } from './timeout-options.js';

/**
 * An answer shorter than this many tokens is counted as this long: its fixed part (the trip,
 * reading the prompt) then weighs on its pace as it would on a long answer, so a short answer's
 * pace is never below what the next short answer will take.
 */
export const MIN_PACED_TOKENS = 64;
/** Paces are kept in ms per this many tokens (a sketch's resolution starts at 1). */
const PACE_UNIT = 1_000;
/** Characters per token, to size an answer whose provider did not report its usage. */
const CHARS_PER_TOKEN = 4;

/**
 * The learnt bound of a plain (non-streamed) answer: the multiplier × the model's slowest pace
 * (a high percentile of ms per output token) × the answer's length (the request's
 * `maxOutputTokens` when it says one, else the longest answer the model has shown, at the same
 * percentile), between a floor of 10 s and the configured attempt bound. A long answer asked
 * for is therefore given the time a long answer takes, and a model that has shown 20 s answers
 * keeps at least three times that; a model that has only ever answered in a second is failed
 * over after 10 s of silence instead of 60.
 */
export const ANSWER_DEADLINE_DEFAULTS = Object.freeze({
  percentile: 0.99,
  multiplier: 3,
  floorMs: 10_000,
  minSamples: 20,
});

/** The bound of each plain attempt of one model: fixed, or learnt (see ANSWER_DEADLINE_DEFAULTS). */
export interface AnswerDeadline {
  /**
   * The bound to arm for an answer of at most `maxOutputTokens` (undefined: unbounded); `now`,
   * the attempt's start read on `clock`, spares the shared sketches a clock read.
   */
  currentMs(maxOutputTokens: number | undefined, now?: number, clock?: Clock): number | undefined;
  /** What one answer took (ms from the attempt's start) and what it was. */
  observe(ms: number, response: ChatResponse): void;
  readonly adaptive: boolean;
  /** Learns from every replica: sketches `<key>:answer-pace` and `<key>:answer-tokens`. */
  share(binding: SketchBinding): void;
}

interface AnswerDeadlineSettings {
  answerTimeout?: 'adaptive' | number;
  adaptive?: { answer?: AdaptiveDeadlineOptions };
  timeouts?: TimeoutOptions;
}

/**
 * `answerTimeout`: `adaptive` (the default) learns from the model's plain answers and holds
 * `timeouts.attemptMs` until it has enough of them, that value being its ceiling too; a number
 * of ms bounds every plain attempt at that. `timeouts.attemptMs: null` leaves an adaptive bound
 * off (nothing to cap it).
 */
export function answerDeadline(
  settings: AnswerDeadlineSettings,
  timeouts: ResolvedTimeouts,
): AnswerDeadline {
  const mode = settings.answerTimeout;
  if (typeof mode === 'number' && Number.isFinite(mode) && mode > 0 && mode <= MAX_TIMER_MS) {
    return fixed(mode);
  }
  if (mode !== undefined && mode !== 'adaptive') {
    throw new InvalidConfigurationException(
      `Resilience option 'answerTimeout' must be 'adaptive' or a number of milliseconds above 0 and at most ${MAX_TIMER_MS} (got ${String(mode)})`,
    );
  }
  const ceilingMs = timeouts.attemptMs;
  if (ceilingMs === undefined) return fixed(undefined);
  return new LearntAnswerDeadline(ceilingMs, settings.adaptive?.answer ?? {});
}

function fixed(ms: number | undefined): AnswerDeadline {
  return { currentMs: () => ms, observe: () => undefined, adaptive: false, share: () => undefined };
}

class LearntAnswerDeadline implements AnswerDeadline {
  readonly adaptive = true;
  private readonly options: Required<AdaptiveDeadlineOptions>;
  /** ms per PACE_UNIT output tokens, each answer counted as at least MIN_PACED_TOKENS long. */
  private readonly pace: SharedLatencySketch;
  /** Output tokens per answer. */
  private readonly tokens: SharedLatencySketch;
  private readonly cadence = new QuantileCadence();
  private slowestPace: number | undefined;
  private longestAnswer = 0;

  constructor(
    /** The configured attempt bound: what holds until learnt, and the ceiling. */
    private readonly configuredMs: number,
    given: AdaptiveDeadlineOptions,
  ) {
    const options = resolveAdaptiveOptions(
      given,
      {
        ...ANSWER_DEADLINE_DEFAULTS,
        floorMs: Math.min(ANSWER_DEADLINE_DEFAULTS.floorMs, configuredMs),
        ceilingMs: configuredMs,
      },
      'adaptive.answer',
    );
    // never above the configured attempt bound: learning only shortens the wait on silence
    options.ceilingMs = Math.min(options.ceilingMs, configuredMs);
    options.floorMs = Math.min(options.floorMs, options.ceilingMs);
    this.options = options;
    this.pace = new SharedLatencySketch({ enough: options.minSamples });
    this.tokens = new SharedLatencySketch({ enough: options.minSamples });
    this.pace.onChange = this.tokens.onChange = () => this.cadence.changed();
  }

  currentMs(maxOutputTokens: number | undefined, now?: number, clock?: Clock): number {
    this.pace.poll(now, clock);
    this.tokens.poll(now, clock);
    const { percentile, multiplier, floorMs, ceilingMs, minSamples } = this.options;
    // the two quantiles are read again every few answers (see QuantileCadence)
    if (this.cadence.due()) {
      const enough = this.pace.count() >= minSamples;
      this.slowestPace = enough ? this.pace.quantile(percentile) : undefined;
      this.longestAnswer = enough ? (this.tokens.quantile(percentile) ?? 0) : 0;
      this.cadence.read(enough);
    }
    if (this.slowestPace === undefined) return this.configuredMs;
    // a caller who asks for up to N tokens may get N: the bound is what N take at the model's pace
    const length =
      typeof maxOutputTokens === 'number' && maxOutputTokens > 0
        ? maxOutputTokens
        : this.longestAnswer;
    const learnt = (multiplier * this.slowestPace * Math.max(length, MIN_PACED_TOKENS)) / PACE_UNIT;
    return Math.round(Math.min(ceilingMs, Math.max(floorMs, learnt)));
  }

  observe(ms: number, response: ChatResponse): void {
    const tokens = outputTokensOf(response);
    this.pace.record((ms * PACE_UNIT) / Math.max(tokens, MIN_PACED_TOKENS));
    this.tokens.record(tokens);
    this.cadence.recorded();
  }

  share(binding: SketchBinding): void {
    this.pace.share({ ...binding, key: `${binding.key}:answer-pace` });
    this.tokens.share({ ...binding, key: `${binding.key}:answer-tokens` });
  }
}

/** The answer's output tokens as the provider reported them, else estimated from its text. */
function outputTokensOf(response: ChatResponse): number {
  const reported = response.tokenUsage?.outputTokens;
  if (typeof reported === 'number' && Number.isFinite(reported) && reported >= 0) return reported;
  let chars = response.aiMessage?.text?.length ?? 0;
  for (const call of response.aiMessage?.toolCalls ?? []) {
    chars += (call.name?.length ?? 0) + (call.arguments?.length ?? 0);
  }
  return Math.ceil(chars / CHARS_PER_TOKEN);
}
