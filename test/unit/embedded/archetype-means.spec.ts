import { describe, expect, it } from '@jest/globals';
import {
  messageMean,
  messagesHash,
  shippedArchetypeMeans,
} from '../../../src/embedded/archetype-means.js';
import { loadIntentCorpus } from '../../../src/embedded/intent-corpus.js';
import { EMBEDDED_VECTOR_DEFAULTS } from '../../../src/embedded/embedded-vector-decision-model.js';
import { intentMetricFor } from '../../../src/embedded/intent-metric.js';
import { DEFAULT_WORD_WEIGHTING } from '../../../src/embedded/word-vector-embedder.js';
import { featureSpace, vectors } from '../../support/decision-space.js';

// The shipped model's topic space: the default weighting under the default intent metric.
const STRENGTH = EMBEDDED_VECTOR_DEFAULTS.intentMetric;
const space = featureSpace({}, intentMetricFor(vectors, DEFAULT_WORD_WEIGHTING, STRENGTH));
const corpus = loadIntentCorpus();
const topicOf = (text: string) => space.ofText(text).topic;

describe('shipped archetype means', () => {
  it('are those of the shipped corpus in the shipped space (regenerate when the corpus changes)', () => {
    const means = shippedArchetypeMeans(vectors, DEFAULT_WORD_WEIGHTING, STRENGTH)!;
    expect(means).toBeDefined();
    for (const archetype of corpus) {
      const shipped = means(archetype);
      expect(shipped).toBeDefined();
      const computed = messageMean(archetype.messages, topicOf);
      const gap = Math.max(...computed.map((value, d) => Math.abs(value - shipped![d]!)));
      expect(gap).toBeLessThan(1e-5);
    }
  });

  it('are not used for an archetype whose messages changed', () => {
    const means = shippedArchetypeMeans(vectors, DEFAULT_WORD_WEIGHTING, STRENGTH)!;
    const billing = corpus.find((archetype) => archetype.name === 'billing')!;
    const edited = { ...billing, messages: [...billing.messages.slice(1), 'my invoice is wrong'] };
    expect(messagesHash(edited.messages)).not.toBe(messagesHash(billing.messages));
    expect(means(edited)).toBeUndefined();
  });

  it('are not used in another word weighting, whose topic vectors differ', () => {
    expect(
      shippedArchetypeMeans(vectors, { ...DEFAULT_WORD_WEIGHTING, centre: false }, STRENGTH),
    ).toBe(undefined);
  });

  it('are not used under another intent metric strength, whose topic vectors differ', () => {
    expect(shippedArchetypeMeans(vectors, DEFAULT_WORD_WEIGHTING, 0)).toBe(undefined);
    expect(shippedArchetypeMeans(vectors, DEFAULT_WORD_WEIGHTING, STRENGTH / 2)).toBe(undefined);
  });
});
