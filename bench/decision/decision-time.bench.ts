/**
 * EmbeddedVectorDecisionModel's time: loading the vectors, fitting a question's classifier (in a
 * fresh process and a warm one) and a decision, each next to a baseline measured in the same run,
 * on the 8 routes of bench/decision/data/decision-routes.json with their 5 examples. Apart from the
 * accuracy benchmark (decision-models.bench.ts), so that it can run alone on a quiet machine:
 *
 *   npm run bench -- decision-time
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { ChoiceQuestion, DecisionRequest } from '../../src/core/decision/decision-model.js';
import { EmbeddedVectorDecisionModel } from '../../src/embedded/embedded-vector-decision-model.js';
import {
  clearWordVectorCache,
  DEFAULT_WORD_VECTORS_FILE,
  findAsset,
  loadWordVectors,
} from '../../src/embedded/word-vectors.js';
import { casesOf, legacySet } from './lib/decision-eval.js';
import { measure, printTable, ratio, us, type Row } from '../lib/measure.js';

const ms = (value: number) => `${value.toFixed(1)} ms`;

const median = (values: number[]) =>
  values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** A module of this build, as a string literal for a child process's script. */
const here = (path: string) => JSON.stringify(new URL(path, import.meta.url).href);

/**
 * A fresh process, where nothing is JIT-compiled yet: reading the file, preload(), and the first
 * decision on an 8-route question (which fits it). Medians of 3 processes.
 */
function coldStart(question: ChoiceQuestion): { read: number; preload: number; first: number } {
  const script = `
    import { readFileSync } from 'node:fs';
    import { performance } from 'node:perf_hooks';
    const vectors = await import(${here('../../src/embedded/word-vectors.js')});
    const { EmbeddedVectorDecisionModel } = await import(${here('../../src/embedded/embedded-vector-decision-model.js')});
    let start = performance.now();
    readFileSync(vectors.findAsset(vectors.DEFAULT_WORD_VECTORS_FILE));
    const read = performance.now() - start;
    start = performance.now();
    const model = new EmbeddedVectorDecisionModel().preload();
    const preload = performance.now() - start;
    start = performance.now();
    await model.decide({ input: 'hello', question: ${JSON.stringify(question)} });
    console.log(JSON.stringify({ read, preload, first: performance.now() - start }));`;
  const runs = [0, 1, 2].map(
    () =>
      JSON.parse(
        execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }),
      ) as { read: number; preload: number; first: number },
  );
  return {
    read: median(runs.map((r) => r.read)),
    preload: median(runs.map((r) => r.preload)),
    first: median(runs.map((r) => r.first)),
  };
}

export async function run(): Promise<void> {
  const legacy = legacySet();
  const routes = legacy.routes;
  const withExamples: ChoiceQuestion = {
    text: 'Which model should handle this request?',
    options: routes.map(({ name, description, examples }) => ({
      name,
      description,
      examples: examples ?? [],
    })),
  };

  // Load: preload() reads and parses the file and builds the word weights (once per process);
  // the first decision on a question then fits its classifier (once per question).
  const file = findAsset(DEFAULT_WORD_VECTORS_FILE);
  const loads: number[] = [];
  const reads: number[] = [];
  const fits: number[] = [];
  for (let i = 0; i < 5; i++) {
    let start = performance.now();
    readFileSync(file);
    reads.push(performance.now() - start);
    clearWordVectorCache();
    start = performance.now();
    const fresh = new EmbeddedVectorDecisionModel().preload();
    loads.push(performance.now() - start);
    start = performance.now();
    await fresh.decide({ input: 'hello', question: withExamples });
    fits.push(performance.now() - start);
  }
  const load = median(loads);
  const read = median(reads);
  const vectors = loadWordVectors();

  const model = new EmbeddedVectorDecisionModel().preload();
  const timed = casesOf(legacy);
  const requests: DecisionRequest[] = timed.map((c) => ({
    input: c.input,
    question: withExamples,
  }));
  const conversation: DecisionRequest[] = timed.map((c, i) => ({
    input: {
      messages: [
        { role: 'user', text: String(timed[(i + 7) % timed.length]!.input) },
        { role: 'assistant', text: 'Sure, here is what I found about that.' },
        { role: 'user', text: String(c.input) },
      ],
    },
    question: withExamples,
  }));
  let i = 0;
  const decision = await measure('decide', () => model.decide(requests[i++ % requests.length]!), {
    iterations: 5_000,
  });
  let j = 0;
  const decisionConversation = await measure(
    'decide {messages}',
    () => model.decide(conversation[j++ % conversation.length]!),
    { iterations: 5_000 },
  );
  let l = 0;
  const stringify = await measure(
    'JSON.stringify',
    () => JSON.stringify(requests[l++ % requests.length]),
    { iterations: 5_000 },
  );

  const cold = coldStart(withExamples);
  const timing: Row[] = [
    {
      benchmark: 'cold start (fresh process): preload()',
      figure: ms(cold.preload),
      baseline: `readFileSync of the file: ${ms(cold.read)}`,
      ratio: ratio(cold.preload, cold.read),
    },
    {
      benchmark: 'cold start: first decision, 8 routes with 5 examples (fits the question)',
      figure: ms(cold.first),
      baseline: `preload(): ${ms(cold.preload)}`,
      ratio: ratio(cold.first, cold.preload),
    },
    {
      benchmark: `warm process: preload() of ${vectors.size.toLocaleString('en')} words × ${vectors.dimensions}d`,
      figure: ms(load),
      baseline: `readFileSync of the file: ${ms(read)}`,
      ratio: ratio(load, read),
    },
    {
      benchmark: 'warm process: first decision on a new question, 8 routes with 5 examples',
      figure: ms(median(fits)),
      baseline: `later decisions: ${us(decision.nsPerOp)}`,
      ratio: ratio(median(fits) * 1e6, decision.nsPerOp),
    },
    {
      benchmark: `decision, ${routes.length} routes with 5 examples, string input`,
      figure: us(decision.nsPerOp),
      baseline: `JSON.stringify(request): ${us(stringify.nsPerOp)}`,
      ratio: ratio(decision.nsPerOp, stringify.nsPerOp),
    },
    {
      benchmark: 'decision, 3-message conversation input',
      figure: us(decisionConversation.nsPerOp),
      baseline: `string input: ${us(decision.nsPerOp)}`,
      ratio: ratio(decisionConversation.nsPerOp, decision.nsPerOp),
    },
  ];
  printTable(
    'Decision models: EmbeddedVectorDecisionModel, time (targets: ≤ 50 µs, load ≤ 50 ms)',
    timing,
  );
}
