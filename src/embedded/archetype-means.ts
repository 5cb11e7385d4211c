import type { IntentArchetype } from './intent-corpus.js';
import {
  readShippedAsset,
  sameWeighting,
  stampMatches,
  type VectorsStamp,
} from './shipped-assets.js';
import { normalized, weightedSum } from '../core/decision/models/similarity-scoring.js';
import type { WordWeighting } from './word-vector-embedder.js';
import type { WordVectors } from './word-vectors.js';

/**
 * The mean topic of each archetype's messages, for the shipped corpus in the space of the shipped
 * vectors and the default word weighting, precomputed by `src/embedded/scripts/build-archetype-means.mjs`
 * (`src/embedded/assets/intent-corpus-means.json`). Matching routes to archetypes needs these means, and
 * computing them reads all 2,249 corpus messages: about 50 ms of a fresh process's first fit.
 * Each mean is used only for an archetype whose messages hash as when it was computed, so a corpus
 * of one's own (or an edited one) is computed as before.
 */
export const DEFAULT_ARCHETYPE_MEANS_FILE = 'intent-corpus-means.json';

/** The archetype's messages' mean topic, or undefined when it was not precomputed for them. */
export type ArchetypeMeans = (archetype: IntentArchetype) => Float64Array | undefined;

interface MeansFile {
  vectors: VectorsStamp;
  weighting: WordWeighting;
  /** The strength of the intent metric the topics were measured under (intent-metric.ts). */
  intentMetric: number;
  archetypes: { name: string; hash: string; mean: number[] }[];
}

/**
 * The shipped means when `vectors`, `weighting` and the intent metric's strength (0 without one)
 * are those they were computed in.
 */
export function shippedArchetypeMeans(
  vectors: WordVectors,
  weighting: WordWeighting,
  intentMetric: number,
): ArchetypeMeans | undefined {
  const file = readShippedAsset<MeansFile>(DEFAULT_ARCHETYPE_MEANS_FILE);
  if (!file || file.intentMetric !== intentMetric) return undefined;
  if (!stampMatches(file.vectors, vectors) || !sameWeighting(file.weighting, weighting)) {
    return undefined;
  }
  const byName = new Map(file.archetypes.map((entry) => [entry.name, entry]));
  return (archetype) => {
    const entry = byName.get(archetype.name);
    if (!entry || entry.hash !== messagesHash(archetype.messages)) return undefined;
    return Float64Array.from(entry.mean);
  };
}

/** The unit sum of the messages' unit topic vectors (what the generator stores, rounded). */
export function messageMean(
  messages: readonly string[],
  topicOf: (text: string) => Float64Array,
): Float64Array {
  return normalized(
    weightedSum(messages.map((message) => ({ vector: topicOf(message), weight: 1 }))),
  );
}

/** FNV-1a (32 bits) over the messages: tells an edited archetype from the shipped one. */
export function messagesHash(messages: readonly string[]): string {
  let hash = 0x811c9dc5;
  const text = messages.join('\n');
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `${messages.length}:${hash.toString(16)}`;
}
