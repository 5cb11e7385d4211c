/**
 * EmbeddedVectorDecisionModel's accuracy and calibration, each next to a baseline measured in the
 * same run (its time: decision-time.bench.ts).
 *
 * Accuracy is measured on bench/decision/data/decision-eval.json (topics, support desks, simple/complex
 * under several configurations, multi-turn conversations, sets by several writers; see
 * bench/decision/data/build-decision-eval.mjs) through the router's own path (options, conversation input,
 * per-route sums). "dev" is the 5-fold cross-validated accuracy of choosing the defaults as
 * bench/decision/lib/decision-tuning.ts does; "held-out" is the shipped defaults on items never used to
 * choose anything. Baselines: keyword overlap, and the plain mean of the word vectors with a
 * centroid + nearest-example score. The 8 × 10 set of bench/decision/data/decision-routes.json is reported
 * as before.
 *
 *   npm run bench -- decision-models
 */
import type { DecisionModel } from '../../src/core/decision/decision-model.js';
import { EmbeddedVectorDecisionModel } from '../../src/embedded/embedded-vector-decision-model.js';
import { KeywordOverlapModel, MeanVectorModel } from './lib/baseline-decision-models.js';
import {
  accuracy,
  calibration,
  casesOf,
  decideCase,
  evaluationSets,
  legacySet,
  misroutes,
  withoutExamples,
  type Case,
  type Outcome,
} from './lib/decision-eval.js';
import { crossValidate, Tuner } from './lib/decision-tuning.js';
import { printTable, ratio, type Row } from '../lib/measure.js';

/** A misroute's prefix: the set it happened in. */
const named = (c: Case) => `${c.set}: `;
const pct = (fraction: number) => `${(fraction * 100).toFixed(1)} %`;

async function outcomesOf(model: DecisionModel, cases: readonly Case[]): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const c of cases) outcomes.push(await decideCase(model, c));
  return outcomes;
}

export async function run(): Promise<void> {
  const sets = evaluationSets();
  const legacy = legacySet();
  const legacyCases = [...casesOf(legacy), ...casesOf(withoutExamples(legacy))];

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
