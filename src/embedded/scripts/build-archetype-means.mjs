#!/usr/bin/env node
// Precomputes the mean topic of each intent-corpus archetype's messages, which matching a route
// to an archetype needs and which a fresh process otherwise computes from all 1,979 messages on
// its first fit (about 30 ms):
//   npx tsc -p tsconfig.bench.json && node src/embedded/scripts/build-archetype-means.mjs
// In the space of the shipped word vectors, the default word weighting and the default intent
// metric (after src/embedded/scripts/build-intent-metric.mjs), with the functions the
// model itself uses (archetype-means.ts); the model uses a mean only for vectors of the same
// fingerprint and an archetype whose messages hash the same. Output:
// src/embedded/assets/intent-corpus-means.json (deterministic).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DEFAULT_WORD_WEIGHTING,
  featureSpace,
  modelModule,
  root,
  vectors,
  vectorsStamp,
} from './built-decision-space.mjs';

const { loadIntentCorpus } = await modelModule('intent-corpus.js');
const { intentMetricFor } = await modelModule('intent-metric.js');
const { EMBEDDED_VECTOR_DEFAULTS } = await modelModule('embedded-vector-decision-model.js');
const { DEFAULT_ARCHETYPE_MEANS_FILE, messageMean, messagesHash } =
  await modelModule('archetype-means.js');

// Only the topic block is read: the other feature weights and the prior do not change it; the
// intent metric (src/embedded/assets/intent-metric.json, build it first) does, at the default strength.
const intentMetric = EMBEDDED_VECTOR_DEFAULTS.intentMetric;
const space = featureSpace(
  undefined,
  intentMetricFor(vectors, DEFAULT_WORD_WEIGHTING, intentMetric),
);
if (intentMetric > 0 && !space.metric)
  throw new Error('src/embedded/assets/intent-metric.json does not fit');
const archetypes = loadIntentCorpus().map(({ name, messages }) => ({
  name,
  hash: messagesHash(messages),
  // Six decimals: the means are unit vectors, matching compares cosines to a few hundredths.
  mean: Array.from(
    messageMean(messages, (text) => space.ofText(text).topic),
    (value) => Number(value.toFixed(6)),
  ),
}));
const file = {
  about:
    'Mean topic vector of the messages of each archetype of src/embedded/assets/intent-corpus.json, generated ' +
    'by src/embedded/scripts/build-archetype-means.mjs for the shipped word vectors and default word weighting.',
  vectors: vectorsStamp(),
  weighting: DEFAULT_WORD_WEIGHTING,
  intentMetric,
};
const lines = archetypes.map((archetype) => JSON.stringify(archetype));
const out = join(root, 'src', 'embedded', 'assets', DEFAULT_ARCHETYPE_MEANS_FILE);
const head = JSON.stringify(file).slice(0, -1);
writeFileSync(out, `${head},"archetypes":[\n${lines.join(',\n')}\n]}\n`);
console.log(`${archetypes.length} archetype means → ${out}`);
