/**
 * The evaluation of decision models on bench/decision/data/decision-eval.json, the way a router uses them:
 * routes become options with `buildChoiceOptions`, conversations become the input with
 * `buildDecisionInput` (the router's default of 3 messages), and the answer is summed per route
 * with `scoreAnswer`, exactly as `DecisionModelChatModelRouter` does.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { aiMessage, userMessage, type ChatMessage } from '../../../src/core/chat/messages.js';
import { scoreAnswer } from '../../../src/core/decision/answer-scoring.js';
import {
  buildChoiceOptions,
  type ChoiceOptions,
} from '../../../src/core/decision/choice-options.js';
import { buildDecisionInput } from '../../../src/core/decision/decision-input.js';
import type { DecisionModel } from '../../../src/core/decision/decision-model.js';
import type { ChatModelRoute } from '../../../src/core/routing/chat-model-route.js';

export interface EvalRoute {
  name: string;
  description: string;
  examples?: string[];
}
export interface EvalItem {
  route: string;
  split: 'dev' | 'heldout';
  input: string | { messages: { role: 'user' | 'assistant'; text: string }[] };
}
export interface EvalSet {
  name: string;
  about: string;
  routes: EvalRoute[];
  items: EvalItem[];
}

/** bench/decision/data/<file>, found by walking up (benchmarks run from build/bench/). */
export function readBenchData<T>(file: string): T {
  for (
    let dir = dirname(fileURLToPath(import.meta.url));
    dirname(dir) !== dir;
    dir = dirname(dir)
  ) {
    const candidate = join(dir, 'bench', 'decision', 'data', file);
    if (existsSync(candidate)) return JSON.parse(readFileSync(candidate, 'utf8')) as T;
  }
  throw new Error(`bench/decision/data/${file} not found`);
}

/** The sets of decision-eval.json, plus `topics` with 2 examples per route and with none. */
export function evaluationSets(): EvalSet[] {
  const sets = readBenchData<{ sets: EvalSet[] }>('decision-eval.json').sets;
  const topics = sets.find((set) => set.name === 'topics');
  if (!topics) return sets;
  const descriptionsOnly: EvalSet = {
    ...topics,
    name: 'topics, descriptions only',
    about: 'the topics routes without their examples',
    routes: topics.routes.map(({ name, description }) => ({ name, description })),
  };
  const fewExamples: EvalSet = {
    ...topics,
    name: 'topics, 2 examples',
    about: 'the topics routes with their first 2 examples',
    routes: topics.routes.map((route) => ({ ...route, examples: route.examples?.slice(0, 2) })),
  };
  const at = sets.indexOf(topics) + 1;
  return [...sets.slice(0, at), fewExamples, descriptionsOnly, ...sets.slice(at)];
}

/** The 8 × 10 set the previous defaults were chosen on, as an evaluation set (all "held-out"). */
export function legacySet(): EvalSet {
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

/** A set with its routes' examples left out. */
export function withoutExamples(set: EvalSet): EvalSet {
  return {
    ...set,
    name: `${set.name}, descriptions only`,
    routes: set.routes.map(({ name, description }) => ({ name, description })),
  };
}

/** One prepared decision: the request parts and the expected route. */
export interface Case {
  set: string;
  expected: string;
  split: 'dev' | 'heldout';
  /** Position among the set's dev items (for folds), or -1. */
  devIndex: number;
  input: NonNullable<ReturnType<typeof buildDecisionInput>>;
  choice: ChoiceOptions;
}

export function casesOf(set: EvalSet): Case[] {
  const routes: ChatModelRoute[] = set.routes.map(({ name, description, examples }) => ({
    name,
    descriptions: [description],
    ...(examples?.length ? { examples } : {}),
  }));
  const choice = buildChoiceOptions(routes);
  let dev = 0;
  return set.items.map((item) => {
    const messages: ChatMessage[] =
      typeof item.input === 'string'
        ? [userMessage(item.input)]
        : item.input.messages.map((m) =>
            m.role === 'user' ? userMessage(m.text) : aiMessage(m.text),
          );
    const input = buildDecisionInput(messages, 3);
    if (input === undefined) throw new Error(`${set.name}: empty input`);
    return {
      set: set.name,
      expected: item.route,
      split: item.split,
      devIndex: item.split === 'dev' ? dev++ : -1,
      input,
      choice,
    };
  });
}

export interface Outcome {
  correct: boolean;
  /** The winning route's summed probability (1 when the model reports none). */
  confidence: number;
  /** Probability given to the expected route. */
  expectedProbability: number;
}

export async function decideCase(
  model: DecisionModel,
  c: Case,
): Promise<Outcome & { route: string }> {
  const question = { text: 'Which model should handle this request?', options: c.choice.options };
  const { route, probabilities } = scoreAnswer(
    await model.decide({ input: c.input, question }),
    c.choice,
  );
  return {
    route,
    correct: route === c.expected,
    confidence: probabilities?.[route] ?? 1,
    expectedProbability: probabilities?.[c.expected] ?? (route === c.expected ? 1 : 0),
  };
}

/**
 * The misroutes among `outcomes` (one per case), most frequent first: `expected→chosen ×n, …`;
 * `label` adds a prefix per case (its set, say) and `most` keeps the first ones.
 */
export function misroutes(
  cases: readonly Case[],
  outcomes: readonly (Outcome & { route: string })[],
  { label = () => '', most = Infinity }: { label?: (c: Case) => string; most?: number } = {},
): string {
  const counts = new Map<string, number>();
  outcomes.forEach((outcome, k) => {
    if (outcome.correct) return;
    const key = `${label(cases[k]!)}${cases[k]!.expected}→${outcome.route}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  });
  const top = [...counts].toSorted((a, b) => b[1] - a[1]).slice(0, most);
  return top.map(([key, n]) => `${key} ×${n}`).join(', ') || 'none';
}

export const accuracy = (outcomes: readonly Outcome[]): number =>
  outcomes.filter((o) => o.correct).length / Math.max(1, outcomes.length);

/** Accuracy among the decisions whose winning probability is at least `threshold`, and their share. */
export function calibration(outcomes: readonly Outcome[], threshold: number) {
  const confident = outcomes.filter((o) => o.confidence >= threshold - 1e-9);
  return { accuracy: accuracy(confident), share: confident.length / Math.max(1, outcomes.length) };
}

/** Mean negative log-likelihood of the expected route. */
export const logLoss = (outcomes: readonly Outcome[]): number =>
  outcomes.reduce((sum, o) => sum - Math.log(Math.max(1e-12, o.expectedProbability)), 0) /
  Math.max(1, outcomes.length);

export const FOLDS = 5;
