import { learnedText } from '../core/decision/decision-feedback.js';
import type { ChoiceOption, LearnRequest } from '../core/decision/decision-model.js';
import { InvalidConfigurationException } from '../core/errors/exceptions.js';
import type { DecisionFeatures } from './decision-features.js';
import { contentStems } from './lexical-overlap.js';
import { dotAt } from '../core/decision/models/similarity-scoring.js';
import { checkPositiveInteger } from '../core/decision/models/option-validation.js';

export const DEFAULT_MAX_LEARNED_PER_OPTION = 50;
/** Examples one caller scope keeps per option (its untrusted feedback, for itself only). */
export const DEFAULT_MAX_LEARNED_PER_SCOPE = 10;
/** Caller scopes with learned examples kept at once; the least recently used goes first. */
export const DEFAULT_MAX_LEARNED_SCOPES = 256;

/**
 * The options whose closest learned example is looked for: the best 3 by centroid and words.
 * The others score on their centroid alone (a scan of 50 examples × 8 options cost more than the
 * rest of a decision).
 */
const CLOSEST_CONTENDERS = 3;

/** Most questions whose learned examples are kept (each router's routes make one question). */
const MAX_QUESTIONS = 256;
/** Most questions per caller scope (a deployment's routers rarely ask more than a few). */
const MAX_SCOPE_QUESTIONS = 4;

interface LearnedExampleSet {
  texts: string[];
  /** Unit topic vectors of the texts, in order. */
  topics: Float64Array[];
  /** Content stems of the texts, in order. */
  stems: Set<string>[];
  /** Stem → how many of the texts use it (kept with the lists, so a decision only looks up). */
  uses: Map<string, number>;
  /** The unit centroid of the topics; recomputed on the next decision after a change. */
  centroid?: Float64Array;
  /** The topics in one array (a tight loop over it is about 3× faster); rebuilt likewise. */
  packed?: Float64Array;
  /** Bumped on each change, so a merged set knows when it is stale. */
  version: number;
  /** This scoped set merged with the shared set of its option, as of both versions. */
  merged?: {
    shared: LearnedExampleSet;
    sharedVersion: number;
    version: number;
    set: LearnedExampleSet;
  };
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

export interface LearnedOptionsConfig {
  /** Examples `learn` keeps per option (the oldest go first; default 50). */
  maxLearnedPerOption?: number;
  /** Examples one caller scope keeps per option, for its own decisions (default 10). */
  maxLearnedPerScope?: number;
  /** Caller scopes with examples of their own (the least recently used goes first; default 256). */
  maxLearnedScopes?: number;
  /** How learned examples score. */
  learnedScoring?: Partial<LearnedScoring>;
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
  /** The shared examples (trusted feedback, a teacher, start-up files): every decision's. */
  private readonly questions = new Map<string, QuestionLearning>();
  /** Per caller scope, its own examples, least recently used first. */
  private readonly scopes = new Map<string, Map<string, QuestionLearning>>();
  /** Options' descriptions as example sets (for options without learned examples). */
  private readonly descriptions = new Map<string, LearnedExampleSet>();

  readonly maxPerOption: number;
  readonly maxPerScope: number;
  readonly maxScopes: number;
  private readonly scoring: LearnedScoring;

  constructor(
    private readonly featuresOf: (text: string) => DecisionFeatures,
    options: LearnedOptionsConfig = {},
  ) {
    checkPositiveInteger(options.maxLearnedPerOption, 'maxLearnedPerOption');
    checkPositiveInteger(options.maxLearnedPerScope, 'maxLearnedPerScope');
    checkPositiveInteger(options.maxLearnedScopes, 'maxLearnedScopes');
    this.maxPerOption = options.maxLearnedPerOption ?? DEFAULT_MAX_LEARNED_PER_OPTION;
    this.maxPerScope = options.maxLearnedPerScope ?? DEFAULT_MAX_LEARNED_PER_SCOPE;
    this.maxScopes = options.maxLearnedScopes ?? DEFAULT_MAX_LEARNED_SCOPES;
    this.scoring = { ...LEARNED_SCORING, ...options.learnedScoring };
  }

  /**
   * Keeps an example of an option: shared without `request.scope`, else for that scope's own
   * decisions only (a client key's feedback never moves another key's routing).
   */
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
    const scope = typeof request.scope === 'string' ? request.scope : undefined;
    const questions = scope === undefined ? this.questions : this.scopeQuestions(scope, true)!;
    const key = fingerprint(options);
    let byOption = questions.get(key);
    if (!byOption) {
      if (questions.size >= (scope === undefined ? MAX_QUESTIONS : MAX_SCOPE_QUESTIONS)) {
        questions.delete(questions.keys().next().value as string);
      }
      byOption = new Map();
      questions.set(key, byOption);
    }
    const set = byOption.get(request.route) ?? exampleSet([], []);
    if (set.texts.includes(text)) return;
    set.texts.push(text);
    set.topics.push(features.topic);
    const stems = contentStems(text);
    set.stems.push(stems);
    for (const stem of stems) set.uses.set(stem, (set.uses.get(stem) ?? 0) + 1);
    const max = scope === undefined ? this.maxPerOption : this.maxPerScope;
    while (set.texts.length > max) {
      set.texts.shift();
      set.topics.shift();
      for (const stem of set.stems.shift()!) {
        const left = set.uses.get(stem)! - 1;
        if (left === 0) set.uses.delete(stem);
        else set.uses.set(stem, left);
      }
    }
    set.centroid = undefined;
    set.packed = undefined;
    set.version++;
    byOption.set(request.route, set);
  }

  /** A scope's questions, marked as just used; created (evicting the least used) when asked. */
  private scopeQuestions(
    scope: string,
    create: boolean,
  ): Map<string, QuestionLearning> | undefined {
    let questions = this.scopes.get(scope);
    if (questions) {
      this.scopes.delete(scope);
    } else {
      if (!create) return undefined;
      if (this.scopes.size >= this.maxScopes) {
        this.scopes.delete(this.scopes.keys().next().value as string);
      }
      questions = new Map();
    }
    this.scopes.set(scope, questions);
    return questions;
  }

  /** The shared set of an option, merged with the scope's own when it has one. */
  private setOf(
    shared: QuestionLearning | undefined,
    scoped: QuestionLearning | undefined,
    option: ChoiceOption,
  ): LearnedExampleSet {
    const own = scoped?.get(option.name);
    const common = shared?.get(option.name);
    if (!own) return common ?? this.described(option);
    if (!common) return own;
    const cached = own.merged;
    if (
      cached?.shared === common &&
      cached.sharedVersion === common.version &&
      cached.version === own.version
    ) {
      return cached.set;
    }
    const set = exampleSet([...common.texts, ...own.texts], [...common.topics, ...own.topics]);
    own.merged = { shared: common, sharedVersion: common.version, version: own.version, set };
    return set;
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
    scope?: string,
  ): Float64Array {
    const { weight, lexicalWeight } = this.scoring;
    if (weight === 0 && lexicalWeight === 0) return out;
    if (this.questions.size === 0 && (scope === undefined || this.scopes.size === 0)) return out;
    const key = fingerprint(options);
    const shared = this.questions.get(key);
    const scoped =
      typeof scope === 'string' ? this.scopeQuestions(scope, false)?.get(key) : undefined;
    if (!shared && !scoped) return out;
    const sets = options.map((option) => this.setOf(shared, scoped, option));
    const idf = lexicalWeight > 0 ? inverseFrequencies(terms, sets) : undefined;
    // centroid and words first; the closest example only where it can change the winner
    const share = this.scoring.closestShare;
    const scores = sets.map(
      (set) =>
        weight * toCentroid(input.topic, set) +
        (idf ? lexicalWeight * wordShare(terms, idf, set) : 0),
    );
    const contenders = topIndices(scores, CLOSEST_CONTENDERS);
    sets.forEach((set, i) => {
      const centroid = toCentroid(input.topic, set);
      const best = contenders.includes(i) ? closest(input.topic, set) : centroid;
      out[i]! += scores[i]! + weight * share * (best - centroid);
    });
    return out;
  }

  /** An option's description as its one example. */
  private described(option: ChoiceOption): LearnedExampleSet {
    const text = `${option.name} ${option.description}`;
    let set = this.descriptions.get(text);
    if (!set) {
      if (this.descriptions.size >= MAX_QUESTIONS * 8) this.descriptions.clear();
      set = exampleSet([text], [this.featuresOf(text).topic]);
      this.descriptions.set(text, set);
    }
    return set;
  }

  /** Learned examples per option of a question: the shared ones, or one scope's own. */
  counts(options: readonly ChoiceOption[], scope?: string): Record<string, number> {
    const questions = scope === undefined ? this.questions : this.scopes.get(scope);
    const byOption = questions?.get(fingerprint(options));
    return Object.fromEntries(
      options.map((option) => [option.name, byOption?.get(option.name)?.texts.length ?? 0]),
    );
  }

  /** How many caller scopes have examples of their own. */
  get scopeCount(): number {
    return this.scopes.size;
  }
}

/** Per input term, log(1 + options / options whose examples use it). */
function inverseFrequencies(
  terms: ReadonlyMap<string, number>,
  sets: readonly LearnedExampleSet[],
): Map<string, number> {
  const idf = new Map<string, number>();
  for (const term of terms.keys()) {
    let df = 0;
    for (const set of sets) if (set.uses.has(term)) df++;
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
    const uses = set.uses.get(term) ?? 0;
    if (uses > 0) found += w * Math.sqrt(uses / set.stems.length);
  }
  return total > 0 ? found / total : 0;
}

function exampleSet(texts: string[], topics: Float64Array[]): LearnedExampleSet {
  const stems = texts.map(contentStems);
  const uses = new Map<string, number>();
  for (const set of stems) for (const stem of set) uses.set(stem, (uses.get(stem) ?? 0) + 1);
  return { texts, topics, stems, uses, version: 0 };
}

/** The cosine to an option's learned examples' unit centroid. */
function toCentroid(input: Float64Array, set: LearnedExampleSet): number {
  set.centroid ??= unitMean(set.topics);
  let dot = 0;
  for (let d = 0; d < input.length; d++) dot += input[d]! * set.centroid[d]!;
  return dot;
}

/** The cosine to an option's closest learned example. */
function closest(input: Float64Array, set: LearnedExampleSet): number {
  const dims = input.length;
  set.packed ??= packed(set.topics, dims);
  let best = -Infinity;
  for (let row = 0; row < set.topics.length; row++) {
    const dot = dotAt(input, set.packed, row * dims, dims);
    if (dot > best) best = dot;
  }
  return best;
}

/** The indices of the `k` highest scores. */
function topIndices(scores: readonly number[], k: number): number[] {
  return scores
    .map((score, i) => ({ score, i }))
    .toSorted((a, b) => b.score - a.score)
    .slice(0, k)
    .map(({ i }) => i);
}

function packed(vectors: readonly Float64Array[], dims: number): Float64Array {
  const out = new Float64Array(vectors.length * dims);
  vectors.forEach((vector, row) => out.set(vector, row * dims));
  return out;
}

function unitMean(vectors: readonly Float64Array[]): Float64Array {
  const mean = new Float64Array(vectors[0]?.length ?? 0);
  for (const vector of vectors) for (let d = 0; d < mean.length; d++) mean[d]! += vector[d]!;
  let norm = 0;
  for (let d = 0; d < mean.length; d++) norm += mean[d]! * mean[d]!;
  if (norm > 0) for (let d = 0; d < mean.length; d++) mean[d]! /= Math.sqrt(norm);
  return mean;
}

/** A question's identity: its options' names, descriptions and own examples. */
function fingerprint(options: readonly ChoiceOption[]): string {
  let key = '';
  for (const option of options) {
    key += `${option.name}\u0000${option.description}\u0000${joined(option.examples)}\u0001`;
  }
  return key;
}

/**
 * A route's examples as one string, kept per array: the router hands every decision the same
 * examples array of a route, so a decision does not join them again.
 */
const joins = new WeakMap<readonly string[], string>();
function joined(examples: readonly string[] | undefined): string {
  if (examples === undefined) return '';
  let text = joins.get(examples);
  if (text === undefined) {
    text = examples.join('\u0002');
    joins.set(examples, text);
  }
  return text;
}
