/**
 * The decision models on the blind evaluation (bench/decision/data/decision-blind.json): sets written by an
 * engineer who never saw the model, its corpus or the development sets, scored with the shipped
 * defaults through the router's path and never used to choose anything. Each set also runs with
 * descriptions only (the examples removed). Baselines in the same run: keyword overlap and the plain
 * mean of the word vectors with a centroid + nearest-example score.
 *
 *   npm run bench -- decision-blind
 */
import type { DecisionModel } from '../../src/core/decision/decision-model.js';
import { EmbeddedVectorDecisionModel } from '../../src/embedded/embedded-vector-decision-model.js';
import { KeywordOverlapModel, MeanVectorModel } from './lib/baseline-decision-models.js';
import {
  accuracy,
  calibration,
  casesOf,
  decideCase,
  misroutes,
  readBenchData,
  type Case,
  type EvalSet,
} from './lib/decision-eval.js';
import { printTable, ratio, type Row } from '../lib/measure.js';

const pct = (fraction: number) => `${(fraction * 100).toFixed(1)} %`;

const descriptionsOnly = (set: EvalSet): EvalSet => ({
  ...set,
  name: `${set.name}, descriptions only`,
  routes: set.routes.map(({ name, description }) => ({ name, description })),
});

async function decideAll(model: DecisionModel, cases: readonly Case[]) {
  const outcomes = [];
  for (const c of cases) outcomes.push(await decideCase(model, c));
  return outcomes;
}

export async function run(): Promise<void> {
  const blind = readBenchData<{ sets: EvalSet[] }>('decision-blind.json').sets;
  const sets = blind.flatMap((set) =>
    set.routes.some((route) => route.examples?.length) ? [set, descriptionsOnly(set)] : [set],
  );
  const shipped = new EmbeddedVectorDecisionModel();
  const keyword = new KeywordOverlapModel();
  const mean = new MeanVectorModel();
  const rows: Row[] = [];
  const everyOutcome = [];
  const misses: string[] = [];
  for (const set of sets) {
    const cases = casesOf(set);
    const mine = await decideAll(shipped, cases);
    const meanAccuracy = accuracy(await decideAll(mean, cases));
    const confident = calibration(mine, 0.6);
    everyOutcome.push(...mine);
    rows.push({
      benchmark: `${set.name} (${set.routes.length} routes, ${cases.length} items)`,
      figure: `**${pct(accuracy(mine))}**; p ≥ 0.6: ${pct(confident.accuracy)} of ${pct(confident.share)}`,
      baseline: `keyword ${pct(accuracy(await decideAll(keyword, cases)))}, mean vectors ${pct(meanAccuracy)}`,
      ratio: ratio(accuracy(mine), meanAccuracy),
    });
    misses.push(`${set.name}: ${misroutes(cases, mine, { most: 6 })}`);
  }
  const confident = calibration(everyOutcome, 0.6);
  rows.push({
    benchmark: `calibration: accuracy when top probability ≥ 0.6 (all ${everyOutcome.length} blind decisions)`,
    figure: `**${pct(confident.accuracy)}** (${pct(confident.share)} of decisions)`,
    baseline: `all blind decisions: ${pct(accuracy(everyOutcome))}`,
    ratio: ratio(confident.accuracy, accuracy(everyOutcome)),
  });
  printTable(
    'Decision models on the blind sets: EmbeddedVectorDecisionModel, shipped defaults (targets: topics ≥ 85 %, descriptions only ≥ 70 %, simple/complex ≥ 85 %, support ≥ 70 %, conversations ≥ 80 %)',
    rows,
  );
  console.log('\nmost frequent misroutes per set (expected→chosen):');
  for (const line of misses) console.log(`  ${line}`);
}
