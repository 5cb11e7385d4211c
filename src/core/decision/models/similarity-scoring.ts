import type { ChoiceAnswer } from '../decision-model.js';

/** Scoring shared by the vector-based decision models: cosine, example matching, softmax. */

export type Vector = ArrayLike<number>;

/** Cosine similarity; 0 when either vector is all zeros (nothing known about it). */
export function cosine(a: Vector, b: Vector): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}

/** `a` scaled to unit length (all zeros stays all zeros). */
export function normalized(a: Vector): Float64Array {
  const out = Float64Array.from(a);
  let norm = 0;
  for (let i = 0; i < out.length; i++) norm += out[i]! * out[i]!;
  if (norm > 0) {
    const inverse = 1 / Math.sqrt(norm);
    for (let i = 0; i < out.length; i++) out[i]! *= inverse;
  }
  return out;
}

/** Σ weight × unit(vector): each message counts by its weight, not by its length. */
export function weightedSum(parts: readonly { vector: Vector; weight: number }[]): Float64Array {
  const out = new Float64Array(parts[0]?.vector.length ?? 0);
  for (const { vector, weight } of parts) {
    const unit = normalized(vector);
    for (let i = 0; i < out.length; i++) out[i]! += weight * unit[i]!;
  }
  return out;
}

export interface OptionVectors {
  description: Vector;
  /** Empty when the option has no examples. */
  examples: readonly Vector[];
}

export interface SimilarityWeights {
  /**
   * Share of the description in the score of an option that has examples (0…1); the rest is the
   * mean of the best `topExamples` example similarities. Options without examples score on their
   * description alone.
   */
  descriptionWeight: number;
  /** How many of the closest examples are averaged. */
  topExamples: number;
}

/** How well `input` matches one option, in cosine units (−1…1). */
export function optionScore(
  input: Vector,
  option: OptionVectors,
  weights: SimilarityWeights,
): number {
  const described = cosine(input, option.description);
  if (option.examples.length === 0) return described;
  const similarities = option.examples.map((example) => cosine(input, example));
  similarities.sort((a, b) => b - a);
  const k = Math.max(1, Math.min(weights.topExamples, similarities.length));
  let top = 0;
  for (let i = 0; i < k; i++) top += similarities[i]!;
  return weights.descriptionWeight * described + (1 - weights.descriptionWeight) * (top / k);
}

/** Softmax of `scores / temperature`, computed stably. */
export function softmax(scores: readonly number[], temperature: number): number[] {
  const max = Math.max(...scores);
  const exps = scores.map((score) => Math.exp((score - max) / temperature));
  const total = exps.reduce((sum, value) => sum + value, 0);
  return exps.map((value) => value / total);
}

/**
 * The answer for per-option scores: the best option (the first one on a tie, so an input with
 * nothing known about it goes to the first option) and every option's softmax probability.
 */
export function answerFromScores(
  names: readonly string[],
  scores: readonly number[],
  temperature: number,
): ChoiceAnswer {
  let best = 0;
  for (let i = 1; i < scores.length; i++) if (scores[i]! > scores[best]!) best = i;
  const probabilities: Record<string, number> = {};
  softmax(scores, temperature).forEach((p, i) => (probabilities[names[i]!] = p));
  return { value: names[best]!, probabilities };
}

/**
 * a · b[offset, offset + length): four running sums, independent additions the CPU can overlap
 * (about 1.5× one sum); for the loops a decision spends most of its time in.
 */
export function dotAt(a: Float64Array, b: Float64Array, offset: number, length: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let d = 0;
  for (; d + 3 < length; d += 4) {
    const o = offset + d;
    s0 += a[d]! * b[o]!;
    s1 += a[d + 1]! * b[o + 1]!;
    s2 += a[d + 2]! * b[o + 2]!;
    s3 += a[d + 3]! * b[o + 3]!;
  }
  for (; d < length; d++) s0 += a[d]! * b[offset + d]!;
  return s0 + s1 + s2 + s3;
}
