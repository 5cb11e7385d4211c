/**
 * Outcomes, not labels: a synthetic set of prompts, each labelled with whether a small and a
 * large model answer it correctly (made up for this benchmark from templates, not measured on
 * real models). Most everyday prompts the small model gets right; prompts that look short and
 * plain but need expert knowledge (tax, tenancy law, drug interactions) it gets wrong, and a
 * router that reads how a prompt is said sends them to it. `quality: 'bad'` feedback on those
 * decisions should move similar prompts to the large route.
 */
import type { ChatModelRoute } from '../../../src/core/routing/chat-model-route.js';
import { EmbeddedVectorDecisionModel } from '../../../src/embedded/embedded-vector-decision-model.js';
import { seededRandom } from '../../lib/seeded-random.js';
import { type Row } from '../../lib/measure.js';
import { pct, routeOnce, routerFor } from './learning-sets.js';

export interface OutcomeItem {
  text: string;
  smallCorrect: boolean;
  largeCorrect: boolean;
}

const COST = { small: 1, large: 10 } as const;

export const OUTCOME_ROUTES: ChatModelRoute[] = [
  { name: 'small', descriptions: ['Everyday questions, small talk and quick facts'] },
  {
    name: 'large',
    descriptions: ['Hard problems: proofs, multi-step reasoning, writing and debugging code'],
  },
];

const pick = <T>(random: () => number, list: readonly T[]): T =>
  list[Math.floor(random() * list.length)]!;

const COUNTRIES = ['France', 'Peru', 'Japan', 'Kenya', 'Norway', 'Canada', 'Egypt', 'Chile'];
const WORDS = ['happy', 'quick', 'large', 'quiet', 'tired', 'bright', 'cold', 'funny', 'brave'];
const ANIMALS = ['otters', 'owls', 'octopuses', 'penguins', 'bees', 'foxes', 'koalas', 'crows'];
const THINGS = ['a laptop', 'a van', 'a desk', 'software', 'a phone', 'training', 'a printer'];
const JOBS = ['bakery', 'consultancy', 'hair salon', 'cleaning firm', 'photography business'];
const DRUGS = ['ibuprofen', 'warfarin', 'sertraline', 'amoxicillin', 'lithium', 'tramadol'];
const SITUATIONS = [
  'wants to sell the flat',
  'raised the rent twice this year',
  'kept my deposit',
  'entered without notice',
  'refuses to fix the boiler',
];

/** Templates per kind: everyday (small right), hidden-hard (small wrong), plainly hard. */
const EVERYDAY: ((r: () => number) => string)[] = [
  (r) => `what is the capital of ${pick(r, COUNTRIES)}`,
  (r) => `say good morning in the language of ${pick(r, COUNTRIES)}`,
  (r) => `how many hours are there in ${2 + Math.floor(r() * 6)} days`,
  (r) => `suggest a name for my new ${pick(r, ['cat', 'dog', 'goldfish', 'rabbit'])}`,
  (r) => `what's a good snack before a ${pick(r, ['run', 'swim', 'meeting', 'flight'])}`,
  (r) => `thanks, that was helpful! have a nice ${pick(r, ['day', 'evening', 'weekend'])}`,
  (r) => `what time zone is ${pick(r, COUNTRIES)} in`,
  (r) => `give me a synonym for ${pick(r, WORDS)}`,
  (r) => `what rhymes with ${pick(r, WORDS)}`,
  (r) => `tell me a fun fact about ${pick(r, ANIMALS)}`,
  (r) => `what do ${pick(r, ANIMALS)} eat`,
  (r) => `what language do they speak in ${pick(r, COUNTRIES)}`,
  (r) => `recommend a ${pick(r, ['film', 'song', 'book', 'board game'])} about ${pick(r, ANIMALS)}`,
];
const HIDDEN_HARD: ((r: () => number) => string)[] = [
  (r) => `can my ${pick(r, JOBS)} claim back the VAT on ${pick(r, THINGS)}`,
  (r) => `is ${pick(r, DRUGS)} ok to take with ${pick(r, DRUGS)}`,
  (r) => `my landlord ${pick(r, SITUATIONS)}, what notice do they have to give`,
  (r) =>
    `do I pay capital gains tax if I sell ${pick(r, ['shares', 'a second home', 'crypto'])} I was given`,
  (r) => `what's the max dose of ${pick(r, DRUGS)} for someone with kidney problems`,
  (r) => `can I deduct ${pick(r, THINGS)} as an expense for my ${pick(r, JOBS)}`,
];
const PLAIN_HARD: ((r: () => number) => string)[] = [
  (r) =>
    `prove that there are infinitely many primes of the form ${4 * (1 + Math.floor(r() * 3))}k+3`,
  (r) =>
    `write a ${pick(r, ['python', 'rust', 'go'])} function that finds the longest path in a DAG and explain its complexity`,
  (r) => `derive the closed form of the sum of k^${2 + Math.floor(r() * 3)} step by step`,
];

/**
 * Up to `count` distinct items, about 45 % everyday, 40 % hidden-hard, 15 % plainly hard (fewer
 * when the templates run out of distinct texts); the large model fails 1 in 10 hard ones.
 */
export function outcomeItems(count: number, seed: number): OutcomeItem[] {
  const random = seededRandom(seed);
  const items: OutcomeItem[] = [];
  const seen = new Set<string>();
  for (let attempt = 0; items.length < count && attempt < count * 50; attempt++) {
    const roll = random();
    const kind = roll < 0.45 ? 'everyday' : roll < 0.85 ? 'hidden' : 'plain';
    const templates = kind === 'everyday' ? EVERYDAY : kind === 'hidden' ? HIDDEN_HARD : PLAIN_HARD;
    const text = pick(random, templates)(random);
    if (seen.has(text)) continue;
    seen.add(text);
    const largeCorrect = kind === 'everyday' || random() > 0.1;
    items.push({ text, smallCorrect: kind === 'everyday', largeCorrect });
  }
  return items;
}

interface Point {
  cost: number;
  quality: number;
}

async function routerPoint(
  router: ReturnType<typeof routerFor>,
  items: readonly OutcomeItem[],
): Promise<Point> {
  let cost = 0;
  let right = 0;
  for (const item of items) {
    const { route } = await routeOnce(router, OUTCOME_ROUTES, [
      { role: 'user', content: item.text },
    ]);
    const large = route === 'large';
    cost += large ? COST.large : COST.small;
    if (large ? item.largeCorrect : item.smallCorrect) right++;
  }
  return { cost: cost / items.length, quality: right / items.length };
}

/** Random routing sending a share `p` to the large route: expected cost and quality. */
function randomPoint(items: readonly OutcomeItem[], p: number): Point {
  const small = items.filter((i) => i.smallCorrect).length / items.length;
  const large = items.filter((i) => i.largeCorrect).length / items.length;
  return {
    cost: COST.small + p * (COST.large - COST.small),
    quality: small + p * (large - small),
  };
}

const show = (p: Point) => `quality ${pct(p.quality)} at cost ${p.cost.toFixed(2)}`;

/** The quality random routing reaches at the same cost. */
function randomAtCost(items: readonly OutcomeItem[], cost: number): number {
  return randomPoint(items, (cost - COST.small) / (COST.large - COST.small)).quality;
}

/**
 * Routes the held-out half before feedback, then routes the other half and answers every
 * decision that went to `small` and was wrong with `quality: 'bad'`, then the held-out half again.
 */
export async function outcomeRows(): Promise<Row[]> {
  const items = outcomeItems(400, 29);
  const half = Math.floor(items.length / 2);
  const pool = items.slice(0, half);
  const heldOut = items.slice(half);
  const router = routerFor(new EmbeddedVectorDecisionModel(), OUTCOME_ROUTES, {
    capabilityOrder: ['small', 'large'],
  });
  const before = await routerPoint(router, heldOut);
  let feedback = 0;
  for (const item of pool) {
    const { route, decisionId } = await routeOnce(router, OUTCOME_ROUTES, [
      { role: 'user', content: item.text },
    ]);
    if (route === 'small' && !item.smallCorrect) {
      await router.feedback(decisionId, undefined, { quality: 'bad' });
      feedback++;
    }
  }
  const after = await routerPoint(router, heldOut);
  const rows: Row[] = [0, 0.5, 1].map((p) => ({
    benchmark: `random routing, ${p * 100} % to large`,
    figure: show(randomPoint(heldOut, p)),
    baseline: '–',
    ratio: '–',
  }));
  rows.push(
    {
      benchmark: 'router before feedback',
      figure: show(before),
      baseline: `random at the same cost: ${pct(randomAtCost(heldOut, before.cost))}`,
      ratio: `${((before.quality - randomAtCost(heldOut, before.cost)) * 100).toFixed(1)} points`,
    },
    {
      benchmark: `router after ${feedback} × quality: bad (of ${pool.length} calls)`,
      figure: show(after),
      baseline: `random at the same cost: ${pct(randomAtCost(heldOut, after.cost))}; before: ${pct(before.quality)}`,
      ratio: `${((after.quality - randomAtCost(heldOut, after.cost)) * 100).toFixed(1)} points`,
    },
  );
  return rows;
}
