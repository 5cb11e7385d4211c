import { attributeKey, isNumber, isString, isTrue, type Attributes } from './attribute-key.js';

/** The attribute under which the chosen route's name travels (call options and AI messages). */
export const ROUTE_ATTRIBUTE = 'chat_model_route';
export const routeAttribute = attributeKey(ROUTE_ATTRIBUTE, isString);

/** The call attribute under which RoutingChatService passes the router's name to the router. */
export const ROUTER_ATTRIBUTE = 'model_router';
export const routerAttribute = attributeKey(ROUTER_ATTRIBUTE, isString);

/**
 * The attribute under which the model of a group that answered travels on an AI message, so a
 * tool loop's next round can return to the same model (prompt caches, provider-side tool state).
 */
export const MODEL_ATTRIBUTE = 'chat_model_name';
export const modelAttribute = attributeKey(MODEL_ATTRIBUTE, isString);

/**
 * The call attribute that names a conversation's session. Calls with the same session key stay
 * on the model that last answered them (per route) for a while, so its prompt cache stays warm.
 */
export const SESSION_ATTRIBUTE = 'model_router_session';
export const sessionAttribute = attributeKey(SESSION_ATTRIBUTE, isString);

/**
 * Set (to `true`) in the call attributes a model receives when its circuit breaker admitted the
 * call as a half-open probe. A probe asks one question, "is the model back?": the resilience
 * layer then makes one attempt instead of its retries, so a provider that is still down gets one
 * request per cooldown, not three.
 */
export const PROBE_ATTRIBUTE = 'model_router_probe';
export const probeAttribute = attributeKey(PROBE_ATTRIBUTE, isTrue);

/** Whether call attributes mark a half-open probe. */
export function isProbeCall(attributes: Attributes | undefined): boolean {
  return probeAttribute.of(attributes) === true;
}

/** Where a provider puts the text of a refusal (the model declined), besides the answer's text. */
export const REFUSAL_ATTRIBUTE = 'refusal';
export const refusalAttribute = attributeKey(REFUSAL_ATTRIBUTE, isString);

/** How the response cache took part in a call (`bypass`: asked not to look, or not cacheable). */
export type CacheOutcome = 'hit' | 'semantic-hit' | 'miss' | 'bypass';
const CACHE_OUTCOMES: ReadonlySet<unknown> = new Set(['hit', 'semantic-hit', 'miss', 'bypass']);
const isCacheOutcome = (value: unknown): value is CacheOutcome => CACHE_OUTCOMES.has(value);

/** On an answer served from the response cache: `hit` or `semantic-hit`. */
export const CACHE_ATTRIBUTE = 'model_router_cache';
export const cacheAttribute = attributeKey(CACHE_ATTRIBUTE, isCacheOutcome);

/** On a semantic hit: the cosine similarity of the question to the cached one. */
export const CACHE_SIMILARITY_ATTRIBUTE = 'model_router_cache_similarity';
export const cacheSimilarityAttribute = attributeKey(CACHE_SIMILARITY_ATTRIBUTE, isNumber);
/**
 * The id of the routing decision behind an answer (DecisionModelChatModelRouter), on its AI
 * message: what `feedback(decisionId, route)` names. The outermost decision router's id wins.
 */
export const DECISION_ATTRIBUTE = 'chat_model_decision_id';
export const decisionAttribute = attributeKey(DECISION_ATTRIBUTE, isString);

/**
 * The call attribute naming who makes the call (a gateway's API key name): a decision router
 * records it, so only that caller (or an operator) may give feedback on the decision.
 */
export const CALLER_ATTRIBUTE = 'model_router_caller';
export const callerAttribute = attributeKey(CALLER_ATTRIBUTE, isString);
