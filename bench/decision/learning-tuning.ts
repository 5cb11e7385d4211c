/**
 * Chooses the learned-example scoring of EmbeddedVectorDecisionModel (learned-evidence.ts) on the
 * development sets (bench/decision/data/eval-sets, never the blind ones) and the garden centre:
 * per set, the first k items of each route are learned, the rest scored. The zero-shot model's
 * answers and every input's reading are computed once, so a grid of scorings costs little.
 * Run: node build/bench/decision/learning-tuning.js [sets-dir]  (a directory of extra JSON sets
 * in the learning format is scored too, for a held-out check: never tune on it)
 * GRID='[{...}]' replaces the grid of scorings; PER_SET=1 lists each set at k = 10;
 * BLEND=<set> prints the fitted blend, DEBUG=<set> the misroutes at k = 10.
 */
import type { EvidenceWeights } from '../../src/embedded/learned-evidence.js';
import { LearnedEvidence, logProbabilities } from '../../src/embedded/learned-evidence.js';
import { LEARNED_SCORING } from '../../src/embedded/learned-options.js';
import { devSets, extraSets, prepare, type Prepared } from './lib/learning-lab.js';

interface Score {
  right: number;
  total: number;
  loss: number;
  sure: number;
  sureRight: number;
}

function evaluate(p: Prepared, k: number, weights: EvidenceWeights | undefined): Score {
  const seen = new Map<number, number>();
  const learned: Prepared['rows'][] = p.set.options.map(() => []);
  const test: Prepared['rows'] = [];
  for (const row of p.rows) {
    const n = seen.get(row.route) ?? 0;
    if (n < k) learned[row.route]!.push(row);
    else test.push(row);
    seen.set(row.route, n + 1);
  }
  const total = learned.reduce((s, l) => s + l.length, 0);
  const evidence =
    weights && total > 0
      ? new LearnedEvidence(
          learned.map((rows) =>
            rows.map((r) => ({ topic: r.reading.topic, terms: r.reading.terms, prior: r.prior })),
          ),
          total,
          weights,
        )
      : undefined;
  const score: Score = { right: 0, total: test.length, loss: 0, sure: 0, sureRight: 0 };
  if (evidence && process.env.BLEND === p.set.name) console.log(k, Array.from(evidence.blend));
  for (const row of test) {
    const z = Float64Array.from(row.prior);
    if (evidence) evidence.addScores(row.reading.topic, row.reading.terms, z);
    const lp = logProbabilities(z, 1);
    let best = 0;
    for (let i = 1; i < lp.length; i++) if (lp[i]! > lp[best]!) best = i;
    const ok = best === row.route;
    if (!ok && process.env.DEBUG === p.set.name && k === 10) {
      const text = JSON.stringify(p.set.items[p.rows.indexOf(row)]!.input);
      const pr = Math.exp(lp[best]!).toFixed(2);
      console.log(`${p.set.options[row.route]!.name} → ${p.set.options[best]!.name} ${pr} ${text}`);
    }
    if (ok) score.right++;
    score.loss -= lp[row.route]!;
    if (Math.exp(lp[best]!) >= 0.6) {
      score.sure++;
      if (ok) score.sureRight++;
    }
  }
  return score;
}

const pct = (x: number) => `${(x * 100).toFixed(1)}`;

function summary(prepared: Prepared[], k: number, weights: EvidenceWeights | undefined) {
  const scores = prepared.map((p) => evaluate(p, k, weights)).filter((s) => s.total >= 10);
  const mean = (f: (s: Score) => number) =>
    scores.reduce((sum, s) => sum + f(s), 0) / Math.max(1, scores.length);
  const sure = scores.reduce((s, x) => s + x.sure, 0);
  const sureRight = scores.reduce((s, x) => s + x.sureRight, 0);
  const all = scores.reduce((s, x) => s + x.total, 0);
  return {
    accuracy: mean((s) => s.right / Math.max(1, s.total)),
    loss: mean((s) => s.loss / Math.max(1, s.total)),
    sureAccuracy: sureRight / Math.max(1, sure),
    sureShare: sure / Math.max(1, all),
    perSet: scores.map((s) => s.right / Math.max(1, s.total)),
  };
}

const KS = [5, 10, 20];

function report(label: string, groups: Record<string, Prepared[]>, weights?: EvidenceWeights) {
  const parts: string[] = [];
  for (const [name, prepared] of Object.entries(groups)) {
    const line = KS.map((k) => {
      const s = summary(prepared, k, weights);
      return `${pct(s.accuracy)}/${s.loss.toFixed(2)}/${pct(s.sureAccuracy)}@${pct(s.sureShare)}`;
    });
    parts.push(`${name}: ${line.join(' ')}`);
    if (process.env.PER_SET) {
      const s0 = summary(prepared, 10, undefined).perSet;
      const s1 = summary(prepared, 10, weights).perSet;
      const names = prepared.filter((p) => evaluate(p, 10, undefined).total >= 10);
      names.forEach((p, i) => console.log(`  ${p.set.name}: ${pct(s0[i]!)} → ${pct(s1[i]!)}`));
    }
  }
  console.log(label.padEnd(60), parts.join('  |  '));
}

const GRID: Partial<EvidenceWeights>[] = JSON.parse(process.env.GRID ?? 'null') ?? [
  { blendPenalty: Infinity },
  {},
  { blendPenalty: 3 },
  { blendPenalty: 30 },
  { blendPenalty: 3, centroid: 8, words: 8 },
  { blendPenalty: 3, centroid: 24, words: 24 },
];

const sets = devSets().map(prepare);
const groups: Record<string, Prepared[]> = {
  single: sets.filter((p) => !p.set.conversations),
  conversations: sets.filter((p) => p.set.conversations),
};
console.log(
  'accuracy % / log loss / accuracy when p ≥ 0.6 @ share, k = 5 10 20; sets:',
  sets.length,
);
report('zero-shot (same held-out items)', groups);
for (const change of GRID) {
  report(JSON.stringify(change), groups, { ...LEARNED_SCORING, ...change });
}
const extra = process.argv[2];
if (extra) {
  for (const p of extraSets(extra).map(prepare)) {
    const before = summary([p], 10, undefined).accuracy;
    const after = summary([p], 10, LEARNED_SCORING).accuracy;
    console.log(`held-out ${p.set.name}: learn-10 ${pct(before)} → ${pct(after)} %`);
  }
}
