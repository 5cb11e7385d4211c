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

export function routesOf(set: LearningSet): ChatModelRoute[] {
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

/** Per route: the first `pool` messages may be learned, the rest are held out. */
export function split(
  set: LearningSet,
  pool: number,
  conversations: boolean,
): { learn: LearningItem[][]; heldOut: LearningItem[] } {
  const learn: LearningItem[][] = [];
  const heldOut: LearningItem[] = [];
  for (const route of set.routes) {
    const messages = set.messages[route.name]!.map((text, i) => ({
      route: route.name,
      messages: conversations
        ? asConversation(text, i)
        : ([{ role: 'user', content: text }] as ChatMessage[]),
    }));
    learn.push(messages.slice(0, pool));
    heldOut.push(...messages.slice(pool));
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
