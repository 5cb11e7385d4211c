import { describe, expect, it } from '@jest/globals';
import {
  answerFromScores,
  cosine,
  normalized,
  optionScore,
  softmax,
  weightedSum,
} from '../../../../../src/core/decision/models/similarity-scoring.js';

describe('similarity scoring', () => {
  it('cosine is 1 for parallel, -1 for opposite, 0 for orthogonal or all-zero vectors', () => {
    expect(cosine([1, 2], [2, 4])).toBeCloseTo(1, 12);
    expect(cosine([1, 0], [-3, 0])).toBeCloseTo(-1, 12);
    expect(cosine([1, 0], [0, 5])).toBe(0);
    expect(cosine([0, 0], [1, 1])).toBe(0);
  });

  it('weightedSum weighs unit vectors, so a long vector does not dominate', () => {
    const unit = normalized([3, 4]);
    expect(unit[0]).toBeCloseTo(0.6, 12);
    expect(unit[1]).toBeCloseTo(0.8, 12);
    expect(Array.from(normalized([0, 0]))).toEqual([0, 0]);
    const sum = weightedSum([
      { vector: [100, 0], weight: 1 },
      { vector: [0, 1], weight: 0.5 },
    ]);
    expect(Array.from(sum)).toEqual([1, 0.5]);
  });

  it('an option scores by its description alone, or mixes it with the mean of its closest examples', () => {
    const input = [1, 0];
    const description = [0, 1];
    expect(
      optionScore(input, { description, examples: [] }, { descriptionWeight: 0.7, topExamples: 1 }),
    ).toBe(0);
    const examples = [
      [1, 0],
      [0, 1],
      [-1, 0],
    ];
    expect(
      optionScore(input, { description, examples }, { descriptionWeight: 0.7, topExamples: 1 }),
    ).toBeCloseTo(0.3, 12);
    expect(
      optionScore(input, { description, examples }, { descriptionWeight: 0.5, topExamples: 2 }),
    ).toBeCloseTo(0.25, 12);
    // topExamples larger than the number of examples averages all of them
    expect(
      optionScore(input, { description, examples }, { descriptionWeight: 0, topExamples: 9 }),
    ).toBeCloseTo(0, 12);
  });

  it('softmax sums to 1, keeps the order, and sharpens as the temperature falls', () => {
    const warm = softmax([0.5, 0.4, 0.1], 1);
    const cold = softmax([0.5, 0.4, 0.1], 0.05);
    expect(warm.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(cold.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(warm[0]).toBeGreaterThan(warm[1]!);
    expect(cold[0]).toBeGreaterThan(warm[0]!);
    // no overflow for large score / temperature ratios
    expect(softmax([1000, 0], 0.001)).toEqual([1, 0]);
  });

  it('the answer is the best option with every probability; a tie goes to the first option', () => {
    const answer = answerFromScores(['a', 'b', 'c'], [0.1, 0.3, 0.2], 0.1);
    expect(answer.value).toBe('b');
    expect(Object.keys(answer.probabilities!)).toEqual(['a', 'b', 'c']);
    expect(answer.probabilities!.b).toBeGreaterThan(answer.probabilities!.c!);
    const tie = answerFromScores(['a', 'b'], [0, 0], 0.05);
    expect(tie).toEqual({ value: 'a', probabilities: { a: 0.5, b: 0.5 } });
  });
});
