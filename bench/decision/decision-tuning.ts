/**
 * Chooses EmbeddedVectorDecisionModel's defaults on the dev items of bench/decision/data/decision-eval.json
 * (never the held-out ones) and prints them, with the accuracy at each step. Not a benchmark (it
 * is not run by `npm run bench`):
 *
 *   npx tsc -p tsconfig.bench.json && node build/bench/decision-tuning.js
 */
import { casesOf, evaluationSets } from './lib/decision-eval.js';
import { chooseTemperature, describePoint, shippedPoint, Tuner } from './lib/decision-tuning.js';

const cases = evaluationSets().flatMap(casesOf);
const dev = cases.filter((c) => c.split === 'dev');
const tuner = new Tuner(dev);
const isDev = () => true;
const start = shippedPoint();
console.log(
  `shipped: ${describePoint(start)}: mean dev accuracy ${((await tuner.score(start, isDev)) * 100).toFixed(1)} %`,
);
const best = await tuner.search(isDev, start);
console.log(
  `best:    ${describePoint(best)}: mean dev accuracy ${((await tuner.score(best, isDev)) * 100).toFixed(1)} %`,
);
const outcomes = await tuner.run(best);
for (const set of new Set(dev.map((c) => c.set))) {
  const mine = outcomes.filter((_, i) => dev[i]!.set === set);
  console.log(
    `  ${set}: ${((mine.filter((o) => o.correct).length / mine.length) * 100).toFixed(1)} %`,
  );
}
console.log(`temperature: ${JSON.stringify(await chooseTemperature(dev, best))}`);
