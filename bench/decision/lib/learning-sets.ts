import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChatMessage } from '../../../src/core/chat/messages.js';
import type { ChatModelRoute } from '../../../src/core/routing/chat-model-route.js';
import { DecisionModelChatModelRouter } from '../../../src/core/decision/decision-model-chat-model-router.js';
import type {
  DecisionModel,
  DecisionModelChatModelRouterOptions,
} from '../../../src/core/index.js';
import { readBenchData } from './decision-eval.js';

/** A set of this benchmark: routes described in a few words, messages per route. */
export interface LearningSet {
  name: string;
  about: string;
  routes: { name: string; description: string }[];
  messages: Record<string, string[]>;
}

export interface LearningItem {
  route: string;
  messages: ChatMessage[];
}

export function gardenCentre(): LearningSet {
  return readBenchData<LearningSet>('learning/garden-centre.json');
}

export function routesOf(set: AnyLearningSet): ChatModelRoute[] {
  return set.routes.map((route) => ({ name: route.name, descriptions: [route.description] }));
}

const FOLLOW_UPS = ['yes please', 'ok go ahead', 'sure, do that', 'yes', 'please do', 'go on then'];

/**
 * A message as a conversation whose last message names no topic ("yes please"): the request, the
 * assistant offering to help, the follow-up. Built from the set's single messages (so these
 * conversations are not written by hand).
 */
export function asConversation(text: string, i: number): ChatMessage[] {
  return [
    { role: 'user', content: text },
    { role: 'assistant', text: 'Happy to help with that. Shall I go ahead?' },
    { role: 'user', content: FOLLOW_UPS[i % FOLLOW_UPS.length]! },
  ];
}

/**
 * Per route: the first `pool` items may be learned, the rest are held out. `conversations` turns a
 * set of single messages into "yes please" conversations; a conversation set is used as written.
 */
export function split(
  set: AnyLearningSet,
  pool: number,
  conversations: boolean,
): { learn: LearningItem[][]; heldOut: LearningItem[] } {
  const learn: LearningItem[][] = [];
  const heldOut: LearningItem[] = [];
  for (const items of itemsOf(set, conversations)) {
    learn.push(items.slice(0, pool));
    heldOut.push(...items.slice(pool));
  }
  return { learn, heldOut };
}

export function routerFor(
  model: DecisionModel,
  routes: ChatModelRoute[],
  options: DecisionModelChatModelRouterOptions = {},
): DecisionModelChatModelRouter {
  const router = new DecisionModelChatModelRouter(model, {
    logger: { warn: () => undefined },
    ...options,
  });
  router.validate(routes);
  return router;
}

/** Routes a call the way RoutingChatModel does and returns the chosen route and decision id. */
export async function routeOnce(
  router: DecisionModelChatModelRouter,
  routes: ChatModelRoute[],
  messages: ChatMessage[],
): Promise<{ route: string; decisionId: string }> {
  const result = await router.route({
    chatRequest: { messages },
    routes,
    attributes: {},
    defaultRoute: routes[0]!.name,
  });
  return { route: result.routeName ?? routes[0]!.name, decisionId: result.decisionId! };
}

export async function accuracy(
  router: DecisionModelChatModelRouter,
  routes: ChatModelRoute[],
  items: readonly LearningItem[],
): Promise<number> {
  let right = 0;
  for (const item of items) {
    if ((await routeOnce(router, routes, item.messages)).route === item.route) right++;
  }
  return right / items.length;
}

export const pct = (share: number): string => `${(share * 100).toFixed(1)} %`;

/** A turn of a hand-written conversation, as the set files store it. */
export interface LearningTurn {
  role: 'user' | 'assistant';
  content: string;
}

/** A set of hand-written conversations per route (the last turn is the user's). */
export interface ConversationSet {
  name: string;
  about: string;
  routes: { name: string; description: string }[];
  conversations: Record<string, LearningTurn[][]>;
}

export type AnyLearningSet = LearningSet | ConversationSet;

export const isConversationSet = (set: AnyLearningSet): set is ConversationSet =>
  'conversations' in set;

/** Least messages (or conversations) per route: 20 may be learned, the rest are held out. */
export const MIN_PER_ROUTE = 25;

/**
 * What is wrong with a set file, empty when nothing: at least 2 routes, each with at least
 * MIN_PER_ROUTE messages (or conversations) and nothing for a route it does not describe, no
 * message twice in the set, conversations alternating user and assistant and ending with the user.
 */
export function problemsOf(set: unknown): string[] {
  if (typeof set !== 'object' || set === null) return ['not an object'];
  const { name, routes, messages, conversations } = set as Record<string, unknown>;
  const problems: string[] = [];
  if (typeof name !== 'string' || name === '') problems.push('no name');
  if (!Array.isArray(routes) || routes.length < 2) return [...problems, 'fewer than 2 routes'];
  const byRoute = (messages ?? conversations) as Record<string, unknown[]> | undefined;
  if ((messages === undefined) === (conversations === undefined) || typeof byRoute !== 'object') {
    return [...problems, 'needs either messages or conversations'];
  }
  const names = routes.map((route: { name?: unknown; description?: unknown }) => {
    if (typeof route?.name !== 'string' || typeof route.description !== 'string') {
      problems.push(`route ${JSON.stringify(route)} needs a name and a description`);
    }
    return String(route?.name);
  });
  for (const key of Object.keys(byRoute)) {
    if (!names.includes(key)) problems.push(`${key}: not one of the routes`);
  }
  const seen = new Set<string>();
  for (const route of names) {
    const items = byRoute[route];
    if (!Array.isArray(items) || items.length < MIN_PER_ROUTE) {
      problems.push(`${route}: fewer than ${MIN_PER_ROUTE}`);
      continue;
    }
    for (const item of items) {
      const problem = messages === undefined ? conversationProblem(item) : textProblem(item);
      if (problem) problems.push(`${route}: ${problem}: ${JSON.stringify(item)}`);
      const key = JSON.stringify(item).toLowerCase().replace(/\s+/g, ' ');
      if (seen.has(key)) problems.push(`${route}: duplicate ${JSON.stringify(item)}`);
      seen.add(key);
    }
  }
  return problems;
}

function textProblem(text: unknown): string | undefined {
  return typeof text === 'string' && text.trim() !== '' ? undefined : 'not a message';
}

function conversationProblem(turns: unknown): string | undefined {
  if (!Array.isArray(turns) || turns.length === 0) return 'not a conversation';
  for (const [i, turn] of turns.entries()) {
    if (turn?.role !== (i % 2 === 0 ? 'user' : 'assistant')) return `turn ${i + 1}: wrong role`;
    if (textProblem(turn.content)) return `turn ${i + 1}: no content`;
  }
  return turns.length % 2 === 1 ? undefined : 'does not end with a user turn';
}

/** bench/decision/data/learning/, found by walking up (benchmarks run from build/bench/). */
function learningDir(): string {
  for (
    let dir = dirname(fileURLToPath(import.meta.url));
    dirname(dir) !== dir;
    dir = dirname(dir)
  ) {
    const candidate = join(dir, 'bench', 'decision', 'data', 'learning');
    if (existsSync(candidate)) return candidate;
  }
  throw new Error('bench/decision/data/learning not found');
}

/** Every set file in bench/decision/data/learning/, checked, by name. */
export function learningSets(): AnyLearningSet[] {
  const dir = learningDir();
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .toSorted()
    .map((file) => {
      const set = JSON.parse(readFileSync(join(dir, file), 'utf8')) as unknown;
      const problems = problemsOf(set);
      if (problems.length > 0) throw new Error(`learning/${file}: ${problems.join('; ')}`);
      return set as AnyLearningSet;
    });
}

/**
 * A set's items per route, in the file's order: its messages (as themselves, or as "yes please"
 * conversations when `yesPlease`), or its hand-written conversations.
 */
export function itemsOf(set: AnyLearningSet, yesPlease: boolean): LearningItem[][] {
  return set.routes.map((route) =>
    isConversationSet(set)
      ? set.conversations[route.name]!.map((turns) => ({
          route: route.name,
          messages: turns.map((turn): ChatMessage =>
            turn.role === 'user'
              ? { role: 'user', content: turn.content }
              : { role: 'assistant', text: turn.content },
          ),
        }))
      : set.messages[route.name]!.map((text, i) => ({
          route: route.name,
          messages: yesPlease
            ? asConversation(text, i)
            : ([{ role: 'user', content: text }] as ChatMessage[]),
        })),
  );
}
