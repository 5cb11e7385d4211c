/**
 * Ideas for learned examples that were measured and left out (docs/decision-models.md, "A third
 * round"), kept runnable so a next attempt starts from their figures: discriminative word weights
 * from the learned examples (multinomial Naive Bayes over stems and stem pairs, its one-vs-rest
 * log-count ratio, words used by one route's examples only) added to the current blend, and
 * self-training on the router's own traffic (confident decisions learned as examples).
 * Each set's first k items per route are learned, the rest decided (mean over sets). Groups: the
 * development sets as learning-tuning.ts counts them, and each tuned learning set (single messages
 * and as "yes please" conversations). The sets written by other hands are never read here.
 * Run: node build/bench/decision/learning-variants.js   K=5|10|20 (default 10), GRID='[...]'.
 */
import type { TermBag } from '../../src/embedded/learned-terms.js';
import type { ChoiceOption } from '../../src/core/decision/decision-model.js';
import { LearnedEvidence, logProbabilities } from '../../src/embedded/learned-evidence.js';
import { LEARNED_SCORING } from '../../src/embedded/learned-options.js';
import { readBenchData } from './lib/decision-eval.js';
import {
  conversation,
  devSets,
  Lab,
  type LearningJson,
  learningSet,
  prepare,
  type Prepared,
} from './lib/learning-lab.js';

/** The learning sets the model's weights were chosen on besides garden-centre (in devSets). */
const TUNED = ['dev-assistant', 'hr-helpdesk', 'insurance-desk', 'telecom-conversations'];

interface Variant {
  /** Word scores: multinomial NB log-likelihoods, one-vs-rest log-count ratios, or words one route's examples use only. */
  kind: 'nb' | 'ratio' | 'exclusive';
  /** Nats per unit of word score added to the blend's logits (0: the blend as it is). */
  lambda: number;
  /** Additive smoothing of the counts (for 'exclusive': the count at which a word counts fully). */
  alpha: number;
  /** Weight of each route's name and description as one more example (0: none). */
  description: number;
  /** Self-training: decisions at least this sure on half of the held-out items (the traffic) are learned. */
  selfTrain?: number;
  /** Self-training: the most such examples per route, as a multiple of k (default 1). */
  selfShare?: number;
}

type Row = Prepared['rows'][number];

const descriptions = new Map<string, TermBag>();
function descriptionTerms(option: ChoiceOption): TermBag {
  const text = `${option.name} ${option.description}`;
  let terms = descriptions.get(text);
  if (!terms) {
    const other = { name: 'other', description: 'anything else' };
    terms = new Lab().prepared([option, other], text).reading.terms;
    descriptions.set(text, terms);
  }
  return terms;
}

/** Per route, the learned examples' term counts, and the word scores of an input. */
class WordCounts {
  private readonly counts = new Map<string, Float64Array>();
  private readonly totals: Float64Array;

  constructor(
    private readonly variant: Variant,
    learned: readonly TermBag[][],
    options: readonly ChoiceOption[],
  ) {
    this.totals = new Float64Array(options.length);
    learned.forEach((bags, c) => {
      for (const bag of bags) this.add(bag, c, 1);
      if (variant.description > 0) this.add(descriptionTerms(options[c]!), c, variant.description);
    });
  }

  private add(bag: TermBag, c: number, weight: number): void {
    for (const [term, tf] of bag) {
      let counts = this.counts.get(term);
      if (!counts) this.counts.set(term, (counts = new Float64Array(this.totals.length)));
      counts[c]! += tf * weight;
      this.totals[c]! += tf * weight;
    }
  }

  /** Per route, the input's word score, shifted so that the best is 0. */
  scores(bag: TermBag): Float64Array {
    const { alpha, kind } = this.variant;
    const routes = this.totals.length;
    const vocabulary = this.counts.size;
    const all = this.totals.reduce((a, b) => a + b, 0);
    const out = new Float64Array(routes);
    let mass = 0;
    for (const [term, tf] of bag) {
      mass += tf;
      const counts = this.counts.get(term);
      if (!counts) continue;
      if (kind === 'exclusive') {
        const users = counts.filter((count) => count > 0);
        const only = counts.findIndex((count) => count > 0);
        if (users.length === 1) out[only]! += tf * Math.min(1, counts[only]! / alpha);
        continue;
      }
      const used = counts.reduce((a, b) => a + b, 0);
      for (let c = 0; c < routes; c++) {
        const p = (counts[c]! + alpha) / (this.totals[c]! + alpha * vocabulary);
        if (kind === 'nb') out[c]! += tf * Math.log(p);
        else {
          const q = (used - counts[c]! + alpha) / (all - this.totals[c]! + alpha * vocabulary);
          out[c]! += tf * Math.log(p / q);
        }
      }
    }
    if (kind === 'exclusive' && mass > 0) for (let c = 0; c < routes; c++) out[c]! /= mass;
    const best = Math.max(...out);
    return out.map((score) => score - best);
  }
}

interface Split {
  learned: Row[][];
  rest: Row[];
}

function split(p: Prepared, k: number): Split {
  const seen = new Map<number, number>();
  const learned: Row[][] = p.set.options.map(() => []);
  const rest: Row[] = [];
  for (const row of p.rows) {
    const n = seen.get(row.route) ?? 0;
    if (n < k) learned[row.route]!.push(row);
    else rest.push(row);
    seen.set(row.route, n + 1);
  }
  return { learned, rest };
}

/** Decides rows with the blend learned from `learned` plus the variant's word scores. */
function decider(p: Prepared, learned: Row[][], variant: Variant | undefined) {
  const total = learned.reduce((s, l) => s + l.length, 0);
  const evidence = new LearnedEvidence(
    learned.map((rows) =>
      rows.map((r) => ({ topic: r.reading.topic, terms: r.reading.terms, prior: r.prior })),
    ),
    total,
    LEARNED_SCORING,
  );
  const words =
    variant && variant.lambda > 0
      ? new WordCounts(
          variant,
          learned.map((rows) => rows.map((r) => r.reading.terms)),
          p.set.options,
        )
      : undefined;
  return (row: Row) => {
    const z = Float64Array.from(row.prior);
    evidence.addScores(row.reading.topic, row.reading.terms, z);
    if (words) {
      const scores = words.scores(row.reading.terms);
      for (let i = 0; i < z.length; i++) z[i]! += variant!.lambda * scores[i]!;
    }
    const lp = logProbabilities(z, 1);
    let best = 0;
    for (let i = 1; i < lp.length; i++) if (lp[i]! > lp[best]!) best = i;
    return { best, p: Math.exp(lp[best]!) };
  };
}

/**
 * Accuracy on the held-out items. With self-training, two folds: half of them are the traffic
 * (the confident decisions learned, at most selfShare × k per route, surest first), the other
 * half are scored, and the other way round.
 */
function accuracy(p: Prepared, k: number, variant: Variant | undefined): number {
  const { learned, rest } = split(p, k);
  if (variant?.selfTrain === undefined) {
    const decide = decider(p, learned, variant);
    return rest.filter((row) => decide(row).best === row.route).length / rest.length;
  }
  let right = 0;
  for (const fold of [0, 1]) {
    const traffic = rest.filter((_, i) => i % 2 === fold);
    const test = rest.filter((_, i) => i % 2 !== fold);
    const decide = decider(p, learned, variant);
    const sure = traffic
      .map((row) => ({ row, ...decide(row) }))
      .filter((d) => d.p >= variant.selfTrain!)
      .toSorted((a, b) => b.p - a.p);
    const weak: Row[][] = p.set.options.map(() => []);
    const cap = Math.round((variant.selfShare ?? 1) * k);
    for (const d of sure) if (weak[d.best]!.length < cap) weak[d.best]!.push(d.row);
    const after = decider(
      p,
      learned.map((rows, i) => [...rows, ...weak[i]!]),
      variant,
    );
    right += test.filter((row) => after(row).best === row.route).length;
  }
  return right / rest.length;
}

function tunedGroups(): Record<string, Prepared[]> {
  const groups: Record<string, Prepared[]> = {};
  for (const name of TUNED) {
    const json = readBenchData<LearningJson>(`learning/${name}.json`);
    const set = learningSet(json, name, false);
    groups[name] = [prepare(set)];
    if (!json.conversations) {
      const items = set.items.map((item, i) => ({
        ...item,
        input: conversation(item.input as string, i),
      }));
      groups[`${name} "yes please"`] = [prepare({ ...set, conversations: true, items })];
    }
  }
  return groups;
}

const GRID: (Variant | null)[] = JSON.parse(process.env.GRID ?? 'null') ?? [
  null,
  { kind: 'nb', lambda: 0.25, alpha: 0.5, description: 1 },
  { kind: 'nb', lambda: 0.5, alpha: 0.5, description: 1 },
  { kind: 'ratio', lambda: 0.5, alpha: 1, description: 1 },
  { kind: 'exclusive', lambda: 1, alpha: 1, description: 0 },
  { kind: 'exclusive', lambda: 4, alpha: 1, description: 0 },
  { kind: 'nb', lambda: 0, alpha: 1, description: 0, selfTrain: 0.9 },
  { kind: 'nb', lambda: 0, alpha: 1, description: 0, selfTrain: 0.8, selfShare: 2 },
];

const K = Number(process.env.K ?? 10);
const dev = devSets().map(prepare);
const groups: Record<string, Prepared[]> = {
  'dev single': dev.filter((p) => !p.set.conversations),
  'dev conversations': dev.filter((p) => p.set.conversations),
  ...tunedGroups(),
};
const pct = (x: number) => (x * 100).toFixed(1).padStart(5);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

console.log(`k = ${K}; accuracy % on: ${Object.keys(groups).join(' | ')} | mean of the tuned sets`);
for (const variant of GRID) {
  const figures = Object.values(groups).map((prepared) =>
    mean(
      prepared
        .filter((p) => split(p, K).rest.length >= 10)
        .map((p) => accuracy(p, K, variant ?? undefined)),
    ),
  );
  const tuned = mean(figures.slice(2));
  console.log(
    [...figures, tuned].map(pct).join(' '),
    ' ',
    variant ? JSON.stringify(variant) : 'the blend as it is',
  );
}
