import { dotAt } from '../core/decision/models/similarity-scoring.js';
import { fitBlend, type BlendRow } from './evidence-blend.js';
import type { TermBag } from './learned-terms.js';

/** A learned example as the evidence reads it: its topic vector, its terms, its zero-shot answer. */
export interface LearnedPoint {
  /** Its text (learnedText): the same input again goes where it was taught to. */
  readonly text?: string;
  readonly topic: Float64Array;
  readonly terms: TermBag;
  /**
   * The zero-shot model's log-probabilities for it, per option of its question; absent for an
   * option's description standing in for examples (it takes no part in the blend's fit).
   */
  readonly prior?: Float64Array;
}

/** How the learned examples' evidence weighs beside the zero-shot model's log-probabilities. */
export interface EvidenceWeights {
  /** Cosine of the input's topic to the unit centroid of an option's examples' topics. */
  centroid: number;
  /** TF-IDF cosine of the input's terms to the centroid of an option's examples' terms. */
  words: number;
  /**
   * Learned examples per option at which the evidence weighs half of the weights above: it grows
   * as n / (n + halfAt), so a few examples nudge the zero-shot model and many outweigh it.
   */
  halfAt: number;
  /**
   * How firmly the blend of the zero-shot model and the two kinds of evidence stays at the
   * weights above against what the learned examples, each scored by the others, say (> 0; lower
   * trusts the fit more; evidence-blend.ts). Infinity turns the fit off.
   */
  blendPenalty: number;
  /**
   * How firmly each option's bias in the blend stays at 0 (Infinity: no biases): fitted with it, it
   * corrects a zero-shot model that leans towards some option on this deployment's traffic.
   */
  biasPenalty: number;
}

/** Sources of the blend: the zero-shot prior, the topic centroid, the words' centroid. */
const SOURCES = 3;

/**
 * The newest examples per option the blend is fitted on: enough to tell the sources apart, and a
 * fit after each change of 50 per option on 8 options stays within a few ms.
 */
const FIT_PER_OPTION = 20;

/**
 * What an input's having been taught counts, in nats: a message the router was told the route
 * of goes there again unless the rest of the evidence is overwhelming (e^4 ≈ 55 to 1).
 */
const TAUGHT = 4;

/**
 * One question's learned examples compiled for scoring: per option, the unit centroid of the
 * topics and the TF-IDF centroid of the terms (IDF over all the question's learned examples), so
 * that a decision costs a few dot products and a pass over the input's terms; and the blend of
 * these with the zero-shot model, fitted on the examples. Rebuilt when the examples change.
 */
export class LearnedEvidence {
  /** Mean learned examples per option. */
  readonly perOption: number;
  /** The blend's weights of the prior, the topic and the words evidence. */
  readonly blend: Float64Array;
  private readonly grown: number;
  private readonly dims: number;
  private readonly options: number;
  /** Per option, the sum of its examples' topics (unnormalized) and its norm. */
  private readonly sums: Float64Array;
  private readonly sumNorms: Float64Array;
  /** Per term: its IDF, and per option its weight in the option's (unnormalized) centroid. */
  private readonly terms = new Map<string, { idf: number; weights: Float64Array }>();
  private readonly centroidNorms: Float64Array;
  private readonly unseenIdf: number;
  /** Learned texts → the options they were taught as. */
  private readonly taught = new Map<string, number[]>();

  constructor(
    sets: readonly (readonly LearnedPoint[])[],
    learned: number,
    private readonly weights: Readonly<EvidenceWeights>,
  ) {
    const options = (this.options = sets.length);
    const dims = (this.dims = sets.find((set) => set.length > 0)?.[0]?.topic.length ?? 0);
    this.perOption = learned / Math.max(1, options);
    this.grown = this.perOption / (this.perOption + weights.halfAt);
    const rows = sets.reduce((sum, set) => sum + set.length, 0);
    this.unseenIdf = Math.log(1 + rows) + 1;
    const df = new Map<string, number>();
    for (const set of sets) {
      for (const point of set) for (const term of point.terms.keys()) add(df, term, 1);
    }
    for (const [term, count] of df) {
      this.terms.set(term, {
        idf: Math.log((1 + rows) / (1 + count)) + 1,
        weights: new Float64Array(options),
      });
    }
    this.sums = new Float64Array(options * dims);
    this.sumNorms = new Float64Array(options);
    this.centroidNorms = new Float64Array(options);
    const units = sets.map((set, i) =>
      set.map((point) => {
        if (point.text !== undefined) {
          const taughtAs = this.taught.get(point.text) ?? [];
          if (!taughtAs.includes(i)) this.taught.set(point.text, [...taughtAs, i]);
        }
        for (let d = 0; d < dims; d++) this.sums[i * dims + d]! += point.topic[d]!;
        const vector = this.unitTfIdf(point.terms);
        for (const [term, weight] of vector)
          this.terms.get(term)!.weights[i]! += weight / set.length;
        return vector;
      }),
    );
    for (let i = 0; i < options; i++) {
      this.sumNorms[i] = Math.sqrt(dotAt(this.sums.subarray(i * dims), this.sums, i * dims, dims));
    }
    for (const entry of this.terms.values()) {
      for (let i = 0; i < options; i++) this.centroidNorms[i]! += entry.weights[i]! ** 2;
    }
    for (let i = 0; i < options; i++) this.centroidNorms[i] = Math.sqrt(this.centroidNorms[i]!);
    this.blend = Number.isFinite(weights.blendPenalty)
      ? this.fit(sets, units)
      : new Float64Array(SOURCES).fill(1);
  }

  /**
   * Turns the zero-shot log-probabilities `prior` into the learned answer's logits, in place;
   * `text`: the input's learnedText, for the inputs taught as they are.
   */
  addScores(topic: Float64Array, terms: TermBag, prior: Float64Array, text?: string): Float64Array {
    const [a, b, c] = this.blend as unknown as [number, number, number];
    const topicWeight = b * this.grown * this.weights.centroid;
    const wordWeight = c * this.grown * this.weights.words;
    const dims = this.dims;
    for (let i = 0; i < this.options; i++) {
      const norm = this.sumNorms[i]!;
      const cosine = norm > 0 ? dotAt(topic, this.sums, i * dims, dims) / norm : 0;
      prior[i] = a * prior[i]! + topicWeight * cosine + (this.blend[SOURCES + i] ?? 0);
    }
    for (const option of (text !== undefined && this.taught.get(text)) || []) {
      prior[option]! += TAUGHT;
    }
    if (wordWeight === 0) return prior;
    const query = this.unitTfIdf(terms);
    const dots = new Float64Array(this.options);
    for (const [term, q] of query) {
      const entry = this.terms.get(term);
      if (entry) for (let i = 0; i < this.options; i++) dots[i]! += q * entry.weights[i]!;
    }
    for (let i = 0; i < this.options; i++) {
      const norm = this.centroidNorms[i]!;
      if (norm > 0) prior[i]! += wordWeight * (dots[i]! / norm);
    }
    return prior;
  }

  /**
   * The blend, fitted on the learned examples each scored by the others. Every option's examples
   * weigh the same in total, and the options' biases are fitted only when every option has
   * some: feedback comes mostly for the routes that were missed (and `quality: bad` for the more
   * capable one only), so how often each route is taught says nothing of how often it is right.
   */
  private fit(
    sets: readonly (readonly LearnedPoint[])[],
    units: readonly Map<string, number>[][],
  ): Float64Array {
    const rows = this.leaveOneOut(sets, units);
    const counts = new Float64Array(this.options);
    for (const row of rows) counts[row.label]!++;
    const taught = counts.filter((count) => count > 0).length;
    const balanced = rows.map((row) => ({
      ...row,
      weight: rows.length / (taught * counts[row.label]!),
    }));
    const biases = taught === this.options ? this.weights.biasPenalty : Infinity;
    return fitBlend(balanced, SOURCES, this.options, this.weights.blendPenalty, biases);
  }

  /** A bag's unit TF-IDF vector (unseen terms count in its norm, as the rarest). */
  private unitTfIdf(terms: TermBag): Map<string, number> {
    let norm = 0;
    for (const [term, tf] of terms)
      norm += (tf * (this.terms.get(term)?.idf ?? this.unseenIdf)) ** 2;
    const vector = new Map<string, number>();
    if (norm === 0) return vector;
    for (const [term, tf] of terms) {
      const entry = this.terms.get(term);
      if (entry) vector.set(term, (tf * entry.idf) / Math.sqrt(norm));
    }
    return vector;
  }

  /**
   * Each learned example (with a prior, in an option with others) scored by the others: its
   * prior, and its cosines to each option's centroids, its own option's without it.
   */
  private leaveOneOut(
    sets: readonly (readonly LearnedPoint[])[],
    units: readonly Map<string, number>[][],
  ): BlendRow[] {
    const { dims, options } = this;
    const topicWeight = this.grown * this.weights.centroid;
    const wordWeight = this.grown * this.weights.words;
    const rows: BlendRow[] = [];
    sets.forEach((set, label) => {
      const n = set.length;
      if (n < 2) return;
      set.forEach((point, e) => {
        if (e < n - FIT_PER_OPTION || point.prior?.length !== options) return;
        const scores = new Float64Array(SOURCES * options);
        scores.set(point.prior, 0);
        const self = dotAt(point.topic, point.topic, 0, dims);
        const words = new Float64Array(options);
        let selfWords = 0;
        for (const [term, weight] of units[label]![e]!) {
          selfWords += weight * weight;
          const entry = this.terms.get(term)!;
          for (let i = 0; i < options; i++) words[i]! += weight * entry.weights[i]!;
        }
        for (let i = 0; i < options; i++) {
          const dot = dotAt(point.topic, this.sums, i * dims, dims);
          let topic: number;
          let word: number;
          if (i === label) {
            const rest = this.sumNorms[i]! ** 2 - 2 * dot + self;
            topic = rest > 1e-12 ? (dot - self) / Math.sqrt(rest) : 0;
            const norm = this.centroidNorms[i]!;
            const restWords = n * n * norm * norm - 2 * n * words[i]! + selfWords;
            word = restWords > 1e-12 ? (n * words[i]! - selfWords) / Math.sqrt(restWords) : 0;
          } else {
            topic = this.sumNorms[i]! > 0 ? dot / this.sumNorms[i]! : 0;
            word = this.centroidNorms[i]! > 0 ? words[i]! / this.centroidNorms[i]! : 0;
          }
          scores[options + i] = topicWeight * topic;
          scores[2 * options + i] = wordWeight * word;
        }
        rows.push({ scores, label });
      });
    });
    return rows;
  }
}

function add(map: Map<string, number>, key: string, value: number): void {
  map.set(key, (map.get(key) ?? 0) + value);
}

/** Logits at a temperature as log-probabilities (a prior that evidence in nats adds to). */
export function logProbabilities(logits: Float64Array, temperature: number): Float64Array {
  let max = -Infinity;
  for (const logit of logits) max = Math.max(max, logit / temperature);
  let sum = 0;
  for (const logit of logits) sum += Math.exp(logit / temperature - max);
  const shift = max + Math.log(sum);
  return logits.map((logit) => logit / temperature - shift);
}
