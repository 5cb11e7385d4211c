/**
 * EmbeddedVectorDecisionModel: load time, fitting and decision time, accuracy and calibration,
 * each next to a baseline measured in the same run.
 *
 * Accuracy is measured on bench/data/decision-eval.json (topics, a support desk, simple/complex
 * under two configurations, multi-turn conversations; see bench/data/build-decision-eval.mjs)
 * through the router's own path (options, conversation input, per-route sums). "dev" is the 5-fold
 * cross-validated accuracy of choosing the defaults as bench/lib/decision-tuning.ts does; "held-out"
 * is the shipped defaults on items never used to choose anything. Baselines: keyword overlap, and
 * the plain mean of the word vectors with a centroid + nearest-example score. The 8 × 10 set of
 * bench/data/decision-routes.json is reported as before.
 *
 *   npm run bench -- decision-models
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type {
  ChoiceQuestion,
  DecisionModel,
  DecisionRequest,
} from '../src/core/decision/decision-model.js';
import { EmbeddedVectorDecisionModel } from '../src/core/decision/models/embedded-vector-decision-model.js';
import {
  clearWordVectorCache,
  DEFAULT_WORD_VECTORS_FILE,
  findAsset,
  loadWordVectors,
} from '../src/core/decision/models/word-vectors.js';
import { KeywordOverlapModel, MeanVectorModel } from './lib/baseline-decision-models.js';
import {
  accuracy,
  calibration,
  casesOf,
  decideCase,
  evaluationSets,
  misroutes,
  readBenchData,
  type Case,
  type EvalSet,
  type Outcome,
} from './lib/decision-eval.js';
import { crossValidate, Tuner } from './lib/decision-tuning.js';
import { measure, printTable, ratio, us, type Row } from './lib/measure.js';

/** A misroute's prefix: the set it happened in. */
const named = (c: Case) => `${c.set}: `;
const pct = (fraction: number) => `${(fraction * 100).toFixed(1)} %`;
const ms = (value: number) => `${value.toFixed(1)} ms`;

/** The 8 × 10 set the previous defaults were chosen on, as an evaluation set (all "held-out"). */
function legacySet(): EvalSet {
  const routes = readBenchData<{ routes: EvalSet['routes'] }>('decision-routes.json').routes;
  const tests = readBenchData<{ messages: { route: string; text: string }[] }>(
    'decision-test-messages.json',
  ).messages;
  return {
    name: 'bench/data 8 × 10',
    about: 'the previous held-out set',
    routes,
    items: tests.map(({ route, text }) => ({ route, split: 'heldout', input: text })),
  };
}

function withoutExamples(set: EvalSet): EvalSet {
  return {
    ...set,
    name: `${set.name}, descriptions only`,
    routes: set.routes.map(({ name, description }) => ({ name, description })),
  };
}

async function outcomesOf(model: DecisionModel, cases: readonly Case[]): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const c of cases) outcomes.push(await decideCase(model, c));
  return outcomes;
}

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
    const vectors = await import(${here('../src/core/decision/models/word-vectors.js')});
    const { EmbeddedVectorDecisionModel } = await import(${here('../src/core/decision/models/embedded-vector-decision-model.js')});
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
  const sets = evaluationSets();
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
  const legacyCases = [...casesOf(legacy), ...casesOf(withoutExamples(legacy))];
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

  // Accuracy: dev by cross-validation, held-out with the shipped defaults, baselines on held-out.
  const cases = sets.flatMap(casesOf);
  const dev = cases.filter((c) => c.split === 'dev');
  const cv = await crossValidate(cases, new Tuner(dev));
  const heldOut = cases.filter((c) => c.split === 'heldout');
  const shipped = await outcomesOf(new EmbeddedVectorDecisionModel(), [...heldOut, ...legacyCases]);
  const keyword = await outcomesOf(new KeywordOverlapModel(), [...heldOut, ...legacyCases]);
  const mean = await outcomesOf(new MeanVectorModel(), [...heldOut, ...legacyCases]);
  const all = [...heldOut, ...legacyCases];
  const rows: Row[] = [];
  for (const name of [...sets.map((s) => s.name), legacy.name, withoutExamples(legacy).name]) {
    const at = all.map((c, k) => (c.set === name ? k : -1)).filter((k) => k >= 0);
    const pick = (outcomes: Outcome[]) => at.map((k) => outcomes[k]!);
    const devAccuracy = cv.accuracy.get(name);
    const devCount = dev.filter((c) => c.set === name).length;
    if (at.length === 0 && devAccuracy !== undefined) {
      // A set that is all development data: its baselines on the same (dev) items.
      const mine = dev.filter((c) => c.set === name);
      const meanDev = accuracy(await outcomesOf(new MeanVectorModel(), mine));
      const keywordDev = accuracy(await outcomesOf(new KeywordOverlapModel(), mine));
      rows.push({
        benchmark: `${name} (${devCount} dev, none held out)`,
        figure: `dev ${pct(devAccuracy)}`,
        baseline: `keyword ${pct(keywordDev)}, mean vectors ${pct(meanDev)} (dev)`,
        ratio: ratio(devAccuracy, meanDev),
      });
      continue;
    }
    const held = accuracy(pick(shipped));
    rows.push({
      benchmark: `${name} (${devAccuracy === undefined ? '' : `${devCount} dev, `}${at.length} held-out)`,
      figure: `${devAccuracy === undefined ? '' : `dev ${pct(devAccuracy)}, `}held-out **${pct(held)}**`,
      baseline: `keyword ${pct(accuracy(pick(keyword)))}, mean vectors ${pct(accuracy(pick(mean)))}`,
      ratio: ratio(held, accuracy(pick(mean))),
    });
  }
  const heldOutcomes = shipped.slice(0, heldOut.length);
  const cvOutcomes = cv.outcomes.map((o) => o.outcome);
  const calibratedHeld = calibration(heldOutcomes, 0.6);
  const calibratedDev = calibration(cvOutcomes, 0.6);
  rows.push(
    {
      benchmark: `all held-out items (${heldOut.length})`,
      figure: pct(accuracy(heldOutcomes)),
      baseline: `mean vectors ${pct(accuracy(mean.slice(0, heldOut.length)))}`,
      ratio: ratio(accuracy(heldOutcomes), accuracy(mean.slice(0, heldOut.length))),
    },
    {
      benchmark: 'calibration: accuracy when top probability ≥ 0.6 (held-out)',
      figure: `**${pct(calibratedHeld.accuracy)}** (${pct(calibratedHeld.share)} of decisions)`,
      baseline: `all held-out decisions: ${pct(accuracy(heldOutcomes))}`,
      ratio: ratio(calibratedHeld.accuracy, accuracy(heldOutcomes)),
    },
    {
      benchmark: 'calibration: accuracy when top probability ≥ 0.6 (dev, cross-validated)',
      figure: `${pct(calibratedDev.accuracy)} (${pct(calibratedDev.share)} of decisions)`,
      baseline: `all dev decisions: ${pct(accuracy(cvOutcomes))}`,
      ratio: ratio(calibratedDev.accuracy, accuracy(cvOutcomes)),
    },
  );
  printTable(
    'Decision models: EmbeddedVectorDecisionModel, top-1 accuracy by route (targets: ≥ 85 %, ≥ 90 % at p ≥ 0.6)',
    rows,
  );
  console.log('\nchosen per fold (dev cross-validation):');
  for (const line of cv.chosen) console.log(`  ${line}`);
  console.log(
    `\nheld-out misroutes (expected→chosen): ${misroutes(heldOut, heldOutcomes as (Outcome & { route: string })[], { label: named })}`,
  );
}
