import { learnedText } from '../core/decision/decision-feedback.js';
import type { ChoiceOption, LearnRequest } from '../core/decision/decision-model.js';
import { InvalidConfigurationException } from '../core/errors/exceptions.js';
import type { DecisionFeatures } from './decision-features.js';
import { checkPositiveInteger } from '../core/decision/models/option-validation.js';

export const DEFAULT_MAX_LEARNED_PER_OPTION = 50;

/** Most questions whose learned examples are kept (each router's routes make one question). */
const MAX_QUESTIONS = 256;

interface LearnedExampleSet {
  texts: string[];
  /** Unit topic vectors of the texts, in order. */
  topics: Float64Array[];
}

export const LEARNED_SCORING: Readonly<LearnedScoring> = { weight: 24, closestShare: 0.5 };

export interface LearnedScoring {
  /** Weight of the learned examples' similarity beside the classifier's logits. */
  weight: number;
  /** Share of the closest example against the centroid of the option's learned examples. */
  closestShare: number;
}

/**
 * The examples an embedded decision model learned from traffic (feedback, a teacher), per
 * question and option. They are the deployment's own messages, so they speak louder than the
 * hand-written examples and borrowed corpus messages the classifier was fitted on: instead of
 * refitting it (tens of ms per learned message), each option scores by its closest learned
 * example and their centroid, added to the classifier's logits. Bounded per option: the oldest
 * go first.
 */
export class LearnedOptions {
  private readonly questions = new Map<string, Map<string, LearnedExampleSet>>();

  readonly maxPerOption: number;
  private readonly scoring: LearnedScoring;

  constructor(
    private readonly featuresOf: (text: string) => DecisionFeatures,
    options: { maxLearnedPerOption?: number; learnedScoring?: Partial<LearnedScoring> } = {},
  ) {
    checkPositiveInteger(options.maxLearnedPerOption, 'maxLearnedPerOption');
    this.maxPerOption = options.maxLearnedPerOption ?? DEFAULT_MAX_LEARNED_PER_OPTION;
    this.scoring = { ...LEARNED_SCORING, ...options.learnedScoring };
  }

  learn(request: LearnRequest): void {
    const options = request?.question?.options;
    if (!Array.isArray(options) || !options.some((option) => option.name === request.route)) {
      throw new InvalidConfigurationException(
        `learn: route '${String(request?.route)}' is not an option of the question`,
      );
    }
    const text = learnedText(request.input).trim();
    if (text === '') return;
    const features = this.featuresOf(text);
    if (features.empty) return;
    const key = fingerprint(options);
    let byOption = this.questions.get(key);
    if (!byOption) {
      if (this.questions.size >= MAX_QUESTIONS) {
        this.questions.delete(this.questions.keys().next().value as string);
      }
      byOption = new Map();
      this.questions.set(key, byOption);
    }
    const set = byOption.get(request.route) ?? { texts: [], topics: [] };
    if (set.texts.includes(text)) return;
    set.texts.push(text);
    set.topics.push(features.topic);
    while (set.texts.length > this.maxPerOption) {
      set.texts.shift();
      set.topics.shift();
    }
    byOption.set(request.route, set);
  }

  /**
   * Adds each option's learned-example score to `out` (and returns it). An option without
   * learned examples scores the mean of those with some, so having examples is no advantage by itself.
   */
  addScores(
    options: readonly ChoiceOption[],
    input: DecisionFeatures,
    out: Float64Array,
  ): Float64Array {
    if (this.questions.size === 0 || this.scoring.weight === 0) return out;
    const byOption = this.questions.get(fingerprint(options));
    if (!byOption) return out;
    const scores = new Float64Array(options.length).fill(Number.NaN);
    let sum = 0;
    let count = 0;
    options.forEach((option, i) => {
      const set = byOption.get(option.name);
      if (!set || set.topics.length === 0) return;
      scores[i] = this.score(input.topic, set.topics);
      sum += scores[i]!;
      count++;
    });
    if (count === 0) return out;
    const mean = sum / count;
    for (let i = 0; i < options.length; i++) {
      out[i]! += this.scoring.weight * (Number.isNaN(scores[i]) ? mean : scores[i]!);
    }
    return out;
  }

  private score(input: Float64Array, topics: readonly Float64Array[]): number {
    let best = -Infinity;
    const centroid = new Float64Array(input.length);
    for (const topic of topics) {
      let dot = 0;
      for (let d = 0; d < input.length; d++) {
        dot += input[d]! * topic[d]!;
        centroid[d]! += topic[d]!;
      }
      if (dot > best) best = dot;
    }
    let norm = 0;
    let dot = 0;
    for (let d = 0; d < input.length; d++) {
      norm += centroid[d]! * centroid[d]!;
      dot += input[d]! * centroid[d]!;
    }
    const toCentroid = norm > 0 ? dot / Math.sqrt(norm) : 0;
    const share = this.scoring.closestShare;
    return share * best + (1 - share) * toCentroid;
  }

  /** Learned examples per option of a question. */
  counts(options: readonly ChoiceOption[]): Record<string, number> {
    const byOption = this.questions.get(fingerprint(options));
    return Object.fromEntries(
      options.map((option) => [option.name, byOption?.get(option.name)?.texts.length ?? 0]),
    );
  }
}

/** A question's identity: its options' names, descriptions and own examples. */
function fingerprint(options: readonly ChoiceOption[]): string {
  let key = '';
  for (const option of options) {
    key += `${option.name}\u0000${option.description}\u0000${(option.examples ?? []).join('\u0002')}\u0001`;
  }
  return key;
}
