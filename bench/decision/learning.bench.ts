/**
 * Routing that learns (issue 29), on sets made for this benchmark (bench/decision/data/learning/,
 * and a synthetic outcome set), never on the held-back or blind sets:
 *
 * - a learning curve per set file: held-out accuracy after 0, 5, 10 and 20 messages per route fed
 *   through `DecisionModelChatModelRouter.feedback`, single messages and "yes please"
 *   conversations, hand-written conversation sets as written;
 * - the teacher loop with a simulated teacher (the gold labels): accuracy and the teacher's share
 *   per 100 decisions;
 * - outcomes: `quality: 'bad'` feedback against random routing on a cost–quality curve;
 * - decision time with 50 learned examples per route on 8 routes against none, same run.
 *
 *   npm run bench -- learning
 */
import type { ChoiceAnswer, DecisionRequest } from '../../src/core/decision/decision-model.js';
import { EmbeddedVectorDecisionModel } from '../../src/embedded/embedded-vector-decision-model.js';
import { measureInterleaved, printTable, ratio, us, type Row } from '../lib/measure.js';
import { seededRandom } from '../lib/seeded-random.js';
import { casesOf, legacySet } from './lib/decision-eval.js';
import { outcomeRows } from './lib/learning-outcomes.js';
import {
  accuracy,
  type AnyLearningSet,
  asConversation,
  gardenCentre,
  isConversationSet,
  type LearningItem,
  learningSets,
  pct,
  routeOnce,
  routerFor,
  routesOf,
  split,
} from './lib/learning-sets.js';

const CURVE = [0, 5, 10, 20] as const;
const POOL = 20;

async function learningCurve(set: AnyLearningSet, conversations: boolean): Promise<Row[]> {
  const routes = routesOf(set);
  const { learn, heldOut } = split(set, POOL, conversations);
  const variant = isConversationSet(set)
    ? ' (conversations)'
    : conversations
      ? ' conversations ("yes please")'
      : '';
  const rows: Row[] = [];
  let zero = 0;
  for (const k of CURVE) {
    const router = routerFor(new EmbeddedVectorDecisionModel(), routes);
    // round-robin over the routes, as traffic would come
    for (let i = 0; i < k; i++) {
      for (const items of learn) {
        const item = items[i]!;
        const { decisionId } = await routeOnce(router, routes, item.messages);
        await router.feedback(decisionId, item.route);
      }
    }
    const share = await accuracy(router, routes, heldOut);
    if (k === 0) zero = share;
    rows.push({
      benchmark: `${set.name}${variant}: ${k} learned per route`,
      figure: pct(share),
      baseline: `0 learned: ${pct(zero)} (${heldOut.length} held out)`,
      ratio: ratio(share, zero),
    });
  }
  return rows;
}

/** Every set of bench/decision/data/learning/: single messages and as "yes please", conversations as written. */
async function learningCurves(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const set of learningSets()) {
    rows.push(...(await learningCurve(set, false)));
    if (!isConversationSet(set)) rows.push(...(await learningCurve(set, true)));
  }
  return rows;
}

/** A decision model that always knows the answer: the gold label of each input. */
function goldTeacher(gold: Map<string, string>) {
  return {
    calls: 0,
    async decide(request: DecisionRequest): Promise<ChoiceAnswer> {
      this.calls++;
      const route = gold.get(keyOf(request.input));
      if (route === undefined) throw new Error('no gold label');
      return { value: route };
    },
  };
}

function keyOf(input: DecisionRequest['input']): string {
  return typeof input === 'string' ? input : input.messages.map((m) => m.text).join('\n');
}

async function teacherLoop(): Promise<Row[]> {
  const set = gardenCentre();
  const routes = routesOf(set);
  // every message once as itself and once as a conversation, shuffled: 480 decisions
  const items: LearningItem[] = [];
  for (const route of set.routes) {
    set.messages[route.name]!.forEach((text, i) => {
      items.push({ route: route.name, messages: [{ role: 'user', content: text }] });
      items.push({ route: route.name, messages: asConversation(text, i) });
    });
  }
  const random = seededRandom(Number(process.env.TEACHER_SEED ?? 7));
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  const gold = new Map<string, string>();
  for (const item of items) {
    const texts = item.messages.map((m) =>
      m.role === 'user' ? String(m.content) : m.role === 'assistant' ? (m.text ?? '') : '',
    );
    gold.set(texts.length === 1 ? texts[0]! : texts.join('\n'), item.route);
  }
  const teacher = goldTeacher(gold);
  const router = routerFor(new EmbeddedVectorDecisionModel(), routes, {
    teacher,
    teachBelow: 0.6,
    maxTeacherShare: 0.3,
  });
  const rows: Row[] = [];
  let right = 0;
  let taughtBefore = 0;
  // per decision: whether it was right and whether the teacher was asked, for the last 100
  const log: { right: boolean; asked: boolean }[] = [];
  for (const [i, item] of items.entries()) {
    const callsBefore = teacher.calls;
    const ok = (await routeOnce(router, routes, item.messages)).route === item.route;
    log.push({ right: ok, asked: teacher.calls > callsBefore });
    if (ok) right++;
    if ((i + 1) % 100 === 0 || i === items.length - 1) {
      const block = (i % 100) + 1;
      const taught = teacher.calls - taughtBefore;
      rows.push({
        benchmark: `teacher loop, decisions ${i + 2 - block}–${i + 1}`,
        figure: `accuracy ${pct(right / block)}`,
        baseline: `teacher asked ${taught} of ${block}`,
        ratio: pct(taught / block),
      });
      right = 0;
      taughtBefore = teacher.calls;
    }
  }
  const last = log.slice(-100);
  rows.push({
    benchmark: `teacher loop, the last 100 decisions (${log.length - 99}–${log.length})`,
    figure: `accuracy ${pct(last.filter((d) => d.right).length / last.length)}`,
    baseline: `teacher asked ${last.filter((d) => d.asked).length} of ${last.length}`,
    ratio: pct(last.filter((d) => d.asked).length / last.length),
  });
  return rows;
}

async function decisionTime(): Promise<Row[]> {
  const legacy = legacySet();
  const question = {
    text: 'Which model should handle this request?',
    options: legacy.routes.map(({ name, description, examples }) => ({
      name,
      description,
      examples: examples ?? [],
    })),
  };
  const requests = casesOf(legacy).map((c) => ({ input: c.input, question }));
  const plain = new EmbeddedVectorDecisionModel().preload();
  const learned = new EmbeddedVectorDecisionModel().preload();
  // 50 learned per route: the garden centre's messages, numbered so each is distinct
  const texts = Object.values(gardenCentre().messages).flat();
  for (const [o, option] of question.options.entries()) {
    for (let i = 0; i < 50; i++) {
      const text = `${texts[(o * 50 + i) % texts.length]!} (${o}.${i})`;
      learned.learn({ input: text, question, route: option.name });
    }
  }
  await learned.decide(requests[0]!); // fits the question with its learned examples
  let i = 0;
  let j = 0;
  // interleaved rounds, CPU time: the machine's drift and other processes move both alike
  const { nsPerOp, cpuNsPerOp } = await measureInterleaved(
    [
      () => plain.decide(requests[i++ % requests.length]!),
      () => learned.decide(requests[j++ % requests.length]!),
    ],
    { iterations: 1_000, rounds: 11, warmup: 3_000 },
  );
  const [before, after] = cpuNsPerOp as [number, number];
  return [
    {
      benchmark: 'decision, 8 routes × 5 examples + 50 learned per route (CPU time)',
      figure: us(after),
      baseline: `no learned examples: ${us(before)} (wall ${us(nsPerOp[1]!)} / ${us(nsPerOp[0]!)})`,
      ratio: ratio(after, before),
    },
  ];
}

export async function run(): Promise<void> {
  printTable(
    `Learning curve: held-out accuracy after feedback (held out: all but the first ${POOL} per route)`,
    await learningCurves(),
  );
  printTable(
    'Teacher loop: a simulated teacher (gold labels), teachBelow 0.6, maxTeacherShare 0.3 (goal: ≥ 90 % after 300, teacher ≤ 30 %)',
    await teacherLoop(),
  );
  printTable(
    "Outcomes: quality: 'bad' feedback, synthetic small/large labels, half of the prompts held out (cost: small 1, large 10)",
    await outcomeRows(),
  );
  printTable('Decision time with learned examples (target ≤ 1.5×)', await decisionTime());
}
