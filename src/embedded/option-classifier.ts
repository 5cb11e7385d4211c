import type { ChoiceOption } from '../core/decision/decision-model.js';
import type { BorrowedMessages } from './archetype-matcher.js';
import { isCatchAll } from './catch-all.js';
import { ClosestExamples } from './closest-examples.js';
import type { DecisionFeatures } from './decision-features.js';
import { LexicalOverlap } from './lexical-overlap.js';
import {
  normalized,
  optionScore,
  type SimilarityWeights,
} from '../core/decision/models/similarity-scoring.js';
import {
  fitSoftmaxRegression,
  linearLogits,
  type LinearModel,
  type RegressionSettings,
} from './softmax-regression.js';

/** A setting that differs between questions whose options have examples and those without. */
export interface PerQuestionKind {
  /** When some option has examples. */
  examples: number;
  /** When no option has examples: the classifier then learns from a few phrases only. */
  descriptionsOnly: number;
}

/** A setting given as one number for both kinds of question, or per kind, over its defaults. */
export function perKind(
  value: number | Partial<PerQuestionKind> | undefined,
  defaults: Readonly<PerQuestionKind>,
): PerQuestionKind {
  if (typeof value === 'number') return { examples: value, descriptionsOnly: value };
  return { ...defaults, ...value };
}

export interface ClassifierSettings {
  regression: RegressionSettings;
  similarity: SimilarityWeights;
  /** Weight of the cosine similarity score beside the classifier's logit. */
  similarityWeight: PerQuestionKind;
  /** Total training weight of the corpus messages an option borrows, beside its own 1. */
  corpusWeight: number;
  /** The same for a catch-all option's borrowed generic messages. */
  catchAllCorpusWeight: number;
  /** Own examples at which borrowed messages weigh half as much (see `borrowedWeight`). */
  corpusHalfWeightExamples: number;
  /** Weight of the exact-word overlap (lexical-overlap.ts) beside the classifier's logit. */
  lexicalWeight: PerQuestionKind;
  /** How much a word of an option's borrowed messages counts there, beside its own words' 1. */
  corpusLexicalWeight: number;
}

/**
 * A description is often a list ("billing, invoices, payments and refunds"): each item is a
 * way the option can be asked for, so each becomes a training point of its own.
 */
export function descriptionPhrases(description: string): string[] {
  const phrases = description
    .split(/[:,;.!?()/]|\s(?:and|or|such as|e\.g\.|including)\s/i)
    .map((phrase) => phrase.trim())
    .filter((phrase) => phrase.length > 2);
  return phrases.length > 1 ? phrases : [];
}

interface OptionFeatures {
  description: DecisionFeatures;
  phrases: DecisionFeatures[];
  examples: DecisionFeatures[];
  /** Messages of the intent-corpus archetype the option matches (see archetype-matcher.ts). */
  borrowed: readonly DecisionFeatures[];
  /** Their total training weight. */
  borrowedWeight: number;
}

/**
 * Fitted once per question from the options' own texts: a softmax regression over the feature
 * vectors of each option's description, its phrases and its examples, plus the cosine score of
 * the previous model (description and closest example) for what the regression cannot learn from
 * a few points. Logits in natural units; the model's temperature turns them into probabilities.
 */
export class OptionClassifier {
  private readonly model: LinearModel;
  private readonly vectors: { description: Float64Array; examples: Float64Array[] }[];
  private readonly closest: ClosestExamples;
  private readonly similarityWeight: number;
  private readonly lexical: LexicalOverlap;
  private readonly lexicalWeight: number;
  /** Whether some option has examples: the two cases are weighted and calibrated apart. */
  readonly withExamples: boolean;

  constructor(
    options: readonly ChoiceOption[],
    featuresOf: (text: string) => DecisionFeatures,
    private readonly settings: ClassifierSettings,
    borrowed: readonly (BorrowedMessages | undefined)[] = [],
  ) {
    const catchAll = options.map(isCatchAll);
    const features: OptionFeatures[] = options.map((option, i) => ({
      description: featuresOf(option.description),
      phrases: descriptionPhrases(option.description).map(featuresOf),
      examples: (option.examples ?? []).map(featuresOf),
      borrowed: borrowed[i]?.features ?? [],
      borrowedWeight: borrowedWeight(
        catchAll[i] ? settings.catchAllCorpusWeight : settings.corpusWeight,
        option.examples?.length ?? 0,
        settings.corpusHalfWeightExamples,
      ),
    }));
    // Borrowed messages are examples too for the closest-example score (with descriptions only,
    // they are the only examples there are), as unit means of BORROWED_PER_EXAMPLE: an archetype
    // has up to 80 messages, and the score's loop over them is most of a decision.
    this.vectors = features.map((option) => ({
      description: option.description.topic,
      examples: [
        ...option.examples.map((example) => example.topic),
        ...meansOf(
          option.borrowed.map((message) => message.topic),
          BORROWED_PER_EXAMPLE,
        ).map(normalized),
      ],
    }));
    this.closest = new ClosestExamples(this.vectors);
    const points = features.flatMap((option, label) =>
      trainingPoints(option, label, settings.similarity.descriptionWeight),
    );
    this.model = fitSoftmaxRegression(points, options.length, settings.regression);
    this.withExamples = features.some((option) => option.examples.length > 0);
    this.similarityWeight = this.withExamples
      ? settings.similarityWeight.examples
      : settings.similarityWeight.descriptionsOnly;
    this.lexical = new LexicalOverlap(
      options,
      borrowed.map((messages) => messages?.vocabulary),
      settings.corpusLexicalWeight,
    );
    this.lexicalWeight = this.withExamples
      ? settings.lexicalWeight.examples
      : settings.lexicalWeight.descriptionsOnly;
  }

  /** One logit per option; `terms`: the input's weighted content stems (lexical-overlap.ts). */
  logits(input: DecisionFeatures, terms?: ReadonlyMap<string, number>): Float64Array {
    const out = new Float64Array(this.vectors.length);
    linearLogits(this.model, input.vector, out);
    if (terms && this.lexicalWeight > 0) this.lexical.addScores(terms, this.lexicalWeight, out);
    const weight = this.similarityWeight;
    if (weight === 0) return out;
    const similarity = this.settings.similarity;
    if (similarity.topExamples === 1) {
      this.closest.addScores(input.topic, similarity.descriptionWeight, weight, out);
    } else {
      this.vectors.forEach((option, i) => {
        out[i]! += weight * optionScore(input.topic, option, similarity);
      });
    }
    return out;
  }
}

/**
 * What an option borrows weighs less the more examples of its own it has: its own examples say
 * what the route means in this deployment, the archetype only what routes of its kind usually mean.
 */
const borrowedWeight = (weight: number, ownExamples: number, halfAt: number): number =>
  (weight * halfAt) / (halfAt + ownExamples);

/**
 * Every option's own texts weigh 1 in total: its description side (the description, and its
 * phrases sharing half of that) `descriptionWeight`, its examples the rest; without examples, the
 * description all. Borrowed corpus messages share `corpusWeight` more.
 */
function trainingPoints(
  option: OptionFeatures,
  label: number,
  descriptionWeight: number,
): { vector: Float64Array; label: number; weight: number }[] {
  const described = option.examples.length === 0 ? 1 : descriptionWeight;
  const points = [];
  const texts = [option.description, ...option.phrases].filter((text) => !text.empty);
  const phrases = texts.length - (option.description.empty ? 0 : 1);
  for (const text of texts) {
    const share = phrases === 0 ? 1 : text === option.description ? 0.5 : 0.5 / phrases;
    points.push({ vector: text.vector, label, weight: described * share });
  }
  const examples = option.examples.filter((example) => !example.empty);
  for (const example of examples) {
    points.push({ vector: example.vector, label, weight: (1 - described) / examples.length });
  }
  const borrowed = meansOf(
    option.borrowed.map((message) => message.vector),
    BORROWED_PER_POINT,
  );
  for (const vector of borrowed) {
    points.push({ vector, label, weight: option.borrowedWeight / borrowed.length });
  }
  return points.filter((point) => point.weight > 0);
}

/**
 * Borrowed messages enter the regression as means of 3 consecutive ones: a third of the points,
 * a ninth of the fit's n² cost (16 ms instead of 56 for 8 support routes), for about the same
 * accuracy (mean dev accuracy 80.2 % against 80.7 % one point per message).
 */
const BORROWED_PER_POINT = 3;

/**
 * And the closest-example score takes them as unit means of 4: mean dev accuracy 82.0 → 82.1 %
 * against means of 3, held-out 76.3 % both, and 49 → 42 µs per 8-route decision (5: 81.8 %, 37 µs;
 * one vector per message, before the intent metric: +0.5 points, +20 µs).
 */
const BORROWED_PER_EXAMPLE = 4;

function meansOf(vectors: readonly Float64Array[], size: number): Float64Array[] {
  const means: Float64Array[] = [];
  for (let start = 0; start < vectors.length; start += size) {
    const group = vectors.slice(start, start + size);
    const mean = new Float64Array(group[0]!.length);
    for (const vector of group) {
      for (let d = 0; d < mean.length; d++) mean[d]! += vector[d]! / group.length;
    }
    means.push(mean);
  }
  return means;
}
