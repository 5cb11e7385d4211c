import { dotAt } from '../core/decision/models/similarity-scoring.js';

/**
 * The similarity score of every option at once: description weight × cosine to its description
 * + the rest × cosine to its closest example (the description alone when it has none), for the
 * unit (or all-zero) topic vectors of decision-features.ts, where the cosine is the dot product.
 * Every vector sits in one contiguous array: with borrowed corpus messages an 8-option question
 * has a few hundred examples, and one tight loop over them costs about a third of a loop over
 * separate arrays.
 */
export class ClosestExamples {
  private readonly dimensions: number;
  private readonly descriptions: Float64Array;
  private readonly examples: Float64Array;
  /** Option i's examples are rows [ends[i - 1], ends[i]) of `examples`. */
  private readonly ends: Int32Array;

  constructor(
    options: readonly { description: Float64Array; examples: readonly Float64Array[] }[],
  ) {
    const dims = options[0]?.description.length ?? 0;
    this.dimensions = dims;
    this.descriptions = new Float64Array(options.length * dims);
    this.ends = new Int32Array(options.length);
    const rows = options.reduce((sum, option) => sum + option.examples.length, 0);
    this.examples = new Float64Array(rows * dims);
    let row = 0;
    options.forEach((option, i) => {
      this.descriptions.set(option.description, i * dims);
      for (const example of option.examples) this.examples.set(example, dims * row++);
      this.ends[i] = row;
    });
  }

  /** Adds `weight` × each option's score to `out`. */
  addScores(input: Float64Array, descriptionWeight: number, weight: number, out: Float64Array) {
    const dims = this.dimensions;
    const descriptions = this.descriptions;
    const examples = this.examples;
    let row = 0;
    for (let i = 0; i < this.ends.length; i++) {
      const described = dotAt(input, descriptions, i * dims, dims);
      const end = this.ends[i]!;
      if (row === end) {
        out[i]! += weight * described;
        continue;
      }
      let best = -Infinity;
      for (; row < end; row++) {
        const similarity = dotAt(input, examples, row * dims, dims);
        if (similarity > best) best = similarity;
      }
      out[i]! += weight * (descriptionWeight * described + (1 - descriptionWeight) * best);
    }
  }
}
