import { learnedText } from '../core/decision/decision-feedback.js';
import type { ChoiceOption, LearnRequest } from '../core/decision/decision-model.js';
import { InvalidConfigurationException } from '../core/errors/exceptions.js';
import type { DecisionFeatures } from './decision-features.js';
import { contentStems } from './lexical-overlap.js';
import { checkPositiveInteger } from '../core/decision/models/option-validation.js';

export const DEFAULT_MAX_LEARNED_PER_OPTION = 50;

/** Most questions whose learned examples are kept (each router's routes make one question). */
const MAX_QUESTIONS = 256;

interface LearnedExampleSet {
  texts: string[];
  /** Unit topic vectors of the texts, in order. */
  topics: Float64Array[];
  /** Content stems of the texts, in order. */
  stems: Set<string>[];
}

/** A question's learned examples, per option. */
type QuestionLearning = Map<string, LearnedExampleSet>;

export const LEARNED_SCORING: Readonly<LearnedScoring> = {
  weight: 64,
  closestShare: 0.5,
  lexicalWeight: 64,
};

export interface LearnedScoring {
  /** Weight of the learned examples' similarity beside the classifier's logits. */
  weight: number;
  /** Share of the closest example against the centroid of the option's learned examples. */
  closestShare: number;
  /**
   * Weight of the exact words: the IDF-weighted share of the input's content stems that the
   * option's learned examples use (rare words such as "voucher" or "login" that averaged word
   * vectors blur).
   */
  lexicalWeight: number;
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
  private readonly questions = new Map<string, QuestionLearning>();

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
    const set = byOption.get(request.route) ?? { texts: [], topics: [], stems: [] };
    if (set.texts.includes(text)) return;
    set.texts.push(text);
    set.topics.push(features.topic);
    set.stems.push(contentStems(text));
    while (set.texts.length > this.maxPerOption) {
      set.texts.shift();
      set.topics.shift();
      set.stems.shift();
    }
    byOption.set(request.route, set);
  }

  /**
   * Adds each option's learned-example score to `out` (and returns it). Once some option of the
   * question has learned examples, one without any is scored on its description as if that were
   * its one example, so having examples is no advantage by itself.
   */
  addScores(
    options: readonly ChoiceOption[],
    input: DecisionFeatures,
    terms: ReadonlyMap<string, number>,
    out: Float64Array,
  ): Float64Array {
    const { weight, lexicalWeight } = this.scoring;
    if (this.questions.size === 0 || (weight === 0 && lexicalWeight === 0)) return out;
    const byOption = this.questions.get(fingerprint(options));
    if (!byOption) return out;
    const sets = options.map((option) => byOption.get(option.name) ?? this.described(option));
    const idf = lexicalWeight > 0 ? inverseFrequencies(terms, sets) : undefined;
    sets.forEach((set, i) => {
      out[i]! +=
        weight * this.score(input.topic, set.topics) +
        (idf ? lexicalWeight * wordShare(terms, idf, set) : 0);
    });
    return out;
  }

  /** An option's description as its one example. */
  private described(option: ChoiceOption): LearnedExampleSet {
    const text = `${option.name} ${option.description}`;
    return { texts: [text], topics: [this.featuresOf(text).topic], stems: [contentStems(text)] };
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

/** Per input term, log(1 + options / options whose examples use it). */
function inverseFrequencies(
  terms: ReadonlyMap<string, number>,
  sets: readonly LearnedExampleSet[],
): Map<string, number> {
  const idf = new Map<string, number>();
  for (const term of terms.keys()) {
    const df = sets.filter((set) => set.stems.some((stems) => stems.has(term))).length;
    idf.set(term, Math.log(1 + sets.length / Math.max(df, 0.5)));
  }
  return idf;
}

/**
 * The IDF-weighted share of the input's terms found in an option's learned examples, each found
 * term counting by the share of those examples that use it (square-rooted: one example in five
 * using "voucher" is already telling).
 */
function wordShare(
  terms: ReadonlyMap<string, number>,
  idf: ReadonlyMap<string, number>,
  set: LearnedExampleSet,
): number {
  let found = 0;
  let total = 0;
  for (const [term, weight] of terms) {
    const w = weight * idf.get(term)!;
    total += w;
    let uses = 0;
    for (const stems of set.stems) if (stems.has(term)) uses++;
    if (uses > 0) found += w * Math.sqrt(uses / set.stems.length);
  }
  return total > 0 ? found / total : 0;
}

/** A question's identity: its options' names, descriptions and own examples. */
function fingerprint(options: readonly ChoiceOption[]): string {
  let key = '';
  for (const option of options) {
    key += `${option.name}\u0000${option.description}\u0000${(option.examples ?? []).join('\u0002')}\u0001`;
  }
  return key;
}
