import type { CacheOutcome } from '../../core/chat/call-attributes.js';
import { ModelRouterEvent } from './model-router-event-payloads.js';

/**
 * Events of the response cache, one per lookup of a cached router's call; listen with
 * `@OnEvent(MODEL_ROUTER_CACHE_EVENTS.HIT)`. Kept apart from MODEL_ROUTER_EVENTS, whose names
 * are the public contract of the seed.
 */
export const MODEL_ROUTER_CACHE_EVENTS = {
  /** Served from the cache (`hit` or `semantic-hit`): no model called, nothing charged. */
  HIT: 'model-router.cache.hit',
  /** Looked up and not found: the router answers, and a complete answer is stored. */
  MISS: 'model-router.cache.miss',
  /** Not looked up (`Cache-Control`, or a request too large to cache). */
  BYPASS: 'model-router.cache.bypass',
} as const;

/** One lookup: never the cache key, the request or the caller's key. */
export class CacheLookupEvent extends ModelRouterEvent {
  readonly outcome!: CacheOutcome;
  /** A semantic hit's similarity to the cached question. */
  readonly similarity?: number;
  /** On a hit: what the cached answer cost when it was made. */
  readonly savedUsd?: number;

  constructor(fields: {
    router: string;
    outcome: CacheOutcome;
    similarity?: number;
    savedUsd?: number;
  }) {
    super();
    Object.assign(this, fields);
  }
}

export function cacheEventName(outcome: CacheOutcome): string {
  if (outcome === 'hit' || outcome === 'semantic-hit') return MODEL_ROUTER_CACHE_EVENTS.HIT;
  return outcome === 'miss' ? MODEL_ROUTER_CACHE_EVENTS.MISS : MODEL_ROUTER_CACHE_EVENTS.BYPASS;
}
