#!/usr/bin/env node
// Writes src/embedded/assets/intent-corpus.json, the intent corpus of EmbeddedVectorDecisionModel:
//   node src/embedded/scripts/build-intent-corpus.mjs
// Data: src/embedded/scripts/intent-corpus/*.mjs, short messages written by hand for this project, grouped by
// the route archetypes routers are commonly built from (coding, math, billing, shipping…), each
// with a keyword description used to match a router's routes to it; and, for a simple/complex
// split, the two halves of src/embedded/scripts/complexity-corpus.mjs. None of the messages is in
// bench/data (checked below), so the benchmark's figures stay measured on unseen text.
// Deterministic: same sources → same bytes. Then regenerate the archetypes' precomputed means
// (src/embedded/scripts/build-archetype-means.mjs; a unit test fails while they are stale).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { complexityCorpus } from './complexity-corpus.mjs';
import { assistantArchetypes } from './intent-corpus/assistant.mjs';
import { contextRichMessages } from './intent-corpus/context-rich.mjs';
import { domainArchetypes } from './intent-corpus/domains.mjs';
import { supportArchetypes } from './intent-corpus/support.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const normalize = (text) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

// Texts of the evaluation files. The blind ones (written apart from this project, never to be
// read by it) are only compared with, never printed: a corpus message they also have is dropped,
// so that their figures are measured on text the model has not seen.
const benchTexts = new Set();
const blindTexts = new Set();
const collect = (value, into) => {
  if (typeof value === 'string') into.add(normalize(value));
  else if (Array.isArray(value)) value.forEach((item) => collect(item, into));
  else if (value && typeof value === 'object')
    Object.values(value).forEach((item) => collect(item, into));
};
const data = join(root, 'bench', 'decision', 'data');
for (const file of readdirSync(data).filter((name) => name.endsWith('.json'))) {
  collect(
    JSON.parse(readFileSync(join(data, file), 'utf8')),
    file.includes('blind') ? blindTexts : benchTexts,
  );
}

// The simple/complex split borrows the complexity prior's own labelled corpus, once per text and
// without the few greetings that bench/data also has once punctuation is ignored ("hello!"). Its
// archetypes are marked `style`: they say how hard a request is, not what it is about (each spans
// every topic), so the model matches them only to a router that splits by style.
const { simple, complex } = complexityCorpus();
const distinct = (texts) => [
  ...new Map(
    texts.filter((text) => !benchTexts.has(normalize(text))).map((text) => [normalize(text), text]),
  ).values(),
];
const splitArchetypes = [
  {
    name: 'simple-requests',
    description:
      'simple quick easy short requests for a fast cheap small model: greetings, chit-chat, one fact, lookups',
    messages: distinct(simple),
    style: true,
  },
  {
    name: 'complex-requests',
    description:
      'complex hard difficult tasks for a strong smart model: multi-step reasoning, analysis, planning, long writing, design, proofs',
    messages: distinct(complex),
    style: true,
  },
];
// Long requests with their context, terse fragments, and requests with another archetype's
// surface (a port number in a coding question), added to the archetypes they belong to.
const withContextRich = (list) =>
  list.map((archetype) => ({
    ...archetype,
    messages: [...archetype.messages, ...(contextRichMessages[archetype.name] ?? [])],
  }));
const archetypes = [
  ...withContextRich(assistantArchetypes),
  ...supportArchetypes,
  ...withContextRich(domainArchetypes),
  ...splitArchetypes,
];
const unknown = Object.keys(contextRichMessages).filter(
  (name) => !archetypes.some((archetype) => archetype.name === name),
);
if (unknown.length > 0) throw new Error(`context-rich.mjs: no archetype ${unknown.join(', ')}`);

const names = new Set();
const seen = new Set();
const problems = [];
for (const { name, description, messages } of archetypes) {
  if (names.has(name)) throw new Error(`archetype ${name} occurs twice`);
  names.add(name);
  if (!description || messages.length < 10) throw new Error(`${name}: too few messages`);
  for (const message of messages) {
    const key = normalize(message);
    // The split's corpus may repeat a topic archetype's message; within one, no duplicates.
    if (seen.has(`${name}|${key}`)) problems.push(`${name}: duplicate message: ${message}`);
    if (benchTexts.has(key)) problems.push(`${name}: message is in bench/data: ${message}`);
    seen.add(`${name}|${key}`);
  }
}
if (problems.length > 0) throw new Error(problems.join('\n'));

let dropped = 0;
for (const archetype of archetypes) {
  const kept = archetype.messages.filter((message) => !blindTexts.has(normalize(message)));
  dropped += archetype.messages.length - kept.length;
  archetype.messages = kept;
}

const about =
  'Intent corpus of EmbeddedVectorDecisionModel, generated by src/embedded/scripts/build-intent-corpus.mjs from ' +
  'src/embedded/scripts/intent-corpus/ (messages hand-written for nest-model-router, MIT). A route close to an ' +
  "archetype's description borrows its messages as extra, down-weighted training examples.";
const lines = archetypes.map((archetype) => JSON.stringify(archetype));
const out = join(root, 'src', 'embedded', 'assets', 'intent-corpus.json');
writeFileSync(out, `{"about":${JSON.stringify(about)},"archetypes":[\n${lines.join(',\n')}\n]}\n`);
const total = archetypes.reduce((sum, archetype) => sum + archetype.messages.length, 0);
console.log(
  `${archetypes.length} archetypes, ${total} messages → ${out} (${dropped} dropped: also in a blind evaluation file, not shown)`,
);
