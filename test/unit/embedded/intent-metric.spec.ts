import { describe, expect, it } from '@jest/globals';
import { loadIntentCorpus } from '../../../src/embedded/intent-corpus.js';
import { applyIntentMetric, intentMetricFor } from '../../../src/embedded/intent-metric.js';
import { cosine } from '../../../src/core/decision/models/similarity-scoring.js';
import { DEFAULT_WORD_WEIGHTING } from '../../../src/embedded/word-vector-embedder.js';
import { featureSpace, vectors } from '../../support/decision-space.js';

const plain = featureSpace();

describe('intentMetricFor', () => {
  it('exists for the shipped vectors and default weighting, one object per strength', () => {
    const metric = intentMetricFor(vectors, DEFAULT_WORD_WEIGHTING, 1)!;
    expect(metric.matrix).toHaveLength(vectors.dimensions ** 2);
    expect(intentMetricFor(vectors, DEFAULT_WORD_WEIGHTING, 1)).toBe(metric);
    expect(intentMetricFor(vectors, DEFAULT_WORD_WEIGHTING, 0.5)).not.toBe(metric);
  });

  it('is off at strength 0 and in another weighting, whose topic vectors it was not measured in', () => {
    expect(intentMetricFor(vectors, DEFAULT_WORD_WEIGHTING, 0)).toBeUndefined();
    expect(intentMetricFor(vectors, { ...DEFAULT_WORD_WEIGHTING, centre: false }, 1)).toBe(
      undefined,
    );
  });

  it('keeps unit vectors unit and zeros zero', () => {
    const metric = intentMetricFor(vectors, DEFAULT_WORD_WEIGHTING, 1)!;
    const topic = Float64Array.from(plain.ofText('summarize this article for me').topic);
    applyIntentMetric(metric, topic);
    expect(Math.hypot(...topic)).toBeCloseTo(1, 10);
    const zeros = new Float64Array(vectors.dimensions);
    applyIntentMetric(metric, zeros);
    expect([...zeros].every((value) => value === 0)).toBe(true);
  });

  it('tells archetypes apart better: nearest-centroid accuracy, each message left out', () => {
    // 71 % → 80 % over these 6 archetypes' 428 messages. The metric was measured on them, so this
    // checks what it does, not how it generalizes (the benchmarks' evaluation sets do that).
    const names = ['summarization', 'translation', 'coding', 'debugging', 'billing', 'returns'];
    const corpus = loadIntentCorpus().filter((archetype) => names.includes(archetype.name));
    const accuracy = (transform: (topic: Float64Array) => Float64Array) => {
      const groups = corpus.map((archetype) =>
        archetype.messages.map((text) => transform(Float64Array.from(plain.ofText(text).topic))),
      );
      const sums = groups.map((group) => {
        const sum = new Float64Array(vectors.dimensions);
        for (const topic of group) topic.forEach((value, d) => (sum[d]! += value));
        return sum;
      });
      let right = 0;
      let total = 0;
      groups.forEach((group, a) =>
        group.forEach((topic) => {
          const scores = sums.map((sum, b) =>
            cosine(topic, b === a ? sum.map((value, d) => value - topic[d]!) : sum),
          );
          if (scores.indexOf(Math.max(...scores)) === a) right++;
          total++;
        }),
      );
      return right / total;
    };
    const metric = intentMetricFor(vectors, DEFAULT_WORD_WEIGHTING, 1)!;
    const before = accuracy((topic) => topic);
    const after = accuracy((topic) => {
      applyIntentMetric(metric, topic);
      return topic;
    });
    expect(after).toBeGreaterThan(before + 0.02);
  });
});
