/**
 * Chooses the learned-example scoring of EmbeddedVectorDecisionModel (learned-options.ts) on the
 * development sets (bench/decision/data/eval-sets, never the blind ones): per set, the first k
 * items of each route are learned, the rest scored. Run: node build/bench/decision/learning-tuning.js
 */
import { EmbeddedVectorDecisionModel } from '../../src/embedded/embedded-vector-decision-model.js';
import { casesOf, evaluationSets, withoutExamples, type Case } from './lib/decision-eval.js';

const GRID = [
  { weight: 0, lexicalWeight: 0 },
  { weight: 64, lexicalWeight: 0 },
  { weight: 64, lexicalWeight: 64 },
  { weight: 32, lexicalWeight: 128 },
  { weight: 64, lexicalWeight: 160 },
];

async function score(cases: Case[], k: number, scoring: (typeof GRID)[number]): Promise<number> {
  const model = new EmbeddedVectorDecisionModel({ learnedScoring: scoring });
  const question = { text: 'q', options: cases[0]!.choice.options };
  const seen = new Map<string, number>();
  const test: Case[] = [];
  for (const c of cases) {
    const n = seen.get(c.expected) ?? 0;
    if (n < k) model.learn({ input: c.input, question, route: c.expected });
    else test.push(c);
    seen.set(c.expected, n + 1);
  }
  let right = 0;
  for (const c of test) {
    const answer = await model.decide({ input: c.input, question });
    if (c.choice.routeOf.get(answer.value) === c.expected) right++;
  }
  return right / Math.max(1, test.length);
}

const sets = evaluationSets().filter((set) => !set.name.includes('blind'));
for (const scoring of GRID) {
  const line: string[] = [];
  for (const k of [5, 10]) {
    const shares: number[] = [];
    for (const set of sets) {
      for (const variant of [set, withoutExamples(set)]) {
        shares.push(await score(casesOf(variant), k, scoring));
      }
    }
    line.push(
      `k=${k}: ${((shares.reduce((a, b) => a + b, 0) / shares.length) * 100).toFixed(1)} %`,
    );
  }
  console.log(JSON.stringify(scoring), line.join('  '), `(${sets.length} sets × 2)`);
}
