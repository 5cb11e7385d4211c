import type { ChoiceOption } from '../decision-model.js';
import type { DecisionFeatures } from './decision-features.js';
import { optionScore, type SimilarityWeights } from './similarity-scoring.js';
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

export interface ClassifierSettings {
  regression: RegressionSettings;
  similarity: SimilarityWeights;
  /** Weight of the cosine similarity score beside the classifier's logit. */
  similarityWeight: PerQuestionKind;
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
  private readonly similarityWeight: number;
  /** Whether some option has examples: the two cases are weighted and calibrated apart. */
  readonly withExamples: boolean;

  constructor(
    options: readonly ChoiceOption[],
    featuresOf: (text: string) => DecisionFeatures,
    private readonly settings: ClassifierSettings,
  ) {
    const features: OptionFeatures[] = options.map((option) => ({
      description: featuresOf(option.description),
      phrases: descriptionPhrases(option.description).map(featuresOf),
      examples: (option.examples ?? []).map(featuresOf),
    }));
    this.vectors = features.map(({ description, examples }) => ({
      description: description.topic,
      examples: examples.map((example) => example.topic),
    }));
    const points = features.flatMap((option, label) =>
      trainingPoints(option, label, settings.similarity.descriptionWeight),
    );
    this.model = fitSoftmaxRegression(points, options.length, settings.regression);
    this.withExamples = features.some((option) => option.examples.length > 0);
    this.similarityWeight = this.withExamples
      ? settings.similarityWeight.examples
      : settings.similarityWeight.descriptionsOnly;
  }

  /** One logit per option. */
  logits(input: DecisionFeatures): Float64Array {
    const out = new Float64Array(this.vectors.length);
    linearLogits(this.model, input.vector, out);
    const weight = this.similarityWeight;
    if (weight > 0) {
      const similarity = this.settings.similarity;
      this.vectors.forEach((option, i) => {
        out[i]! +=
          weight *
          (similarity.topExamples === 1
            ? closestScore(input.topic, option, similarity.descriptionWeight)
            : optionScore(input.topic, option, similarity));
      });
    }
    return out;
  }
}

/**
 * `optionScore` with one closest example, for the unit (or all-zero) topic vectors used here, where
 * the cosine is the dot product: no norms, no sort.
 */
function closestScore(
  input: Float64Array,
  option: { description: Float64Array; examples: Float64Array[] },
  descriptionWeight: number,
): number {
  const described = dot(input, option.description);
  if (option.examples.length === 0) return described;
  let best = -Infinity;
  for (const example of option.examples) best = Math.max(best, dot(input, example));
  return descriptionWeight * described + (1 - descriptionWeight) * best;
}

function dot(a: Float64Array, b: Float64Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

/**
 * Every option weighs 1 in total: its description side (the description, and its phrases sharing
 * half of that) `descriptionWeight`, its examples the rest; without examples, the description all.
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
  return points.filter((point) => point.weight > 0);
}
