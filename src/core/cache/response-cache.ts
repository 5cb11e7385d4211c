import type { Clock } from '../clock.js';
import { systemClock } from '../clock.js';
import { abortReason } from '../chat/abort.js';
import {
  type CacheOutcome,
  cacheAttribute,
  cacheSimilarityAttribute,
  DECISION_ATTRIBUTE,
} from '../chat/call-attributes.js';
import type { ChatRequest } from '../chat/request.js';
import type { ChatResponse } from '../chat/response.js';
import { COST_ATTRIBUTE, costAttributeOf } from '../cost/cost.js';
import type { EmbeddingModel } from '../embeddings/embedding-model.js';
import { type CachedAnswer, isCompleteAnswer } from './cache-entry.js';
import { type CacheKeys, cacheKeys, DEFAULT_MAX_KEY_INPUT } from './cache-key.js';
import type { ResponseCacheStore } from './response-cache-store.js';
import type { ReplayPacing } from './replay-pacing.js';
import { semanticGuard } from './semantic-guards.js';
import { SemanticIndex, unitVector } from './semantic-index.js';

/** The cache settings of one router (or of models addressed directly). */
export interface CacheSettings {
  /** How long an answer is served from the cache. */
  ttlMs: number;
  /** Whether callers (API keys, tenants) share answers; default false: each has its own. */
  shared?: boolean;
  /** Match the last user message by meaning, at or above this cosine similarity. */
  semantic?: { threshold: number };
  /** How fast a streamed hit is replayed. */
  replay?: ReplayPacing;
}

/** What the caller asked of the cache (HTTP `Cache-Control`). */
export type CacheControl = 'default' | 'no-cache' | 'no-store';

export interface ResponseCacheOptions {
  store: ResponseCacheStore;
  /** Compares questions for semantic matching; needed when any settings enable `semantic`. */
  embeddings?: EmbeddingModel;
  clock?: Clock;
  /** The largest canonical request keyed (characters); default 256 Ki. */
  maxKeyInput?: number;
  /** The largest answer stored (characters of JSON); default 1 Mi. */
  maxValueBytes?: number;
  /** Questions kept for semantic matching, in all; default 10,000. */
  maxSemanticEntries?: number;
}

/** One call's use of the cache, decided once before the call. */
export interface CachePlan {
  readonly settings: CacheSettings;
  readonly keys: CacheKeys | undefined;
  readonly lookup: boolean;
  readonly store: boolean;
  /** Filled by a semantic lookup, reused when the answer is stored. */
  vector?: Float32Array;
}

export interface CacheLookup {
  outcome: CacheOutcome;
  answer?: CachedAnswer;
  similarity?: number;
}

/** Counts since start; `savedUsd` is what the hits' answers cost when they were made. */
export interface CacheStats {
  hits: number;
  semanticHits: number;
  misses: number;
  bypasses: number;
  stored: number;
  /** Answers not stored: incomplete, too large. */
  notStored: number;
  /** Store or embedding failures, each served as a miss. */
  errors: number;
  savedUsd: number;
}

export const DEFAULT_MAX_VALUE_BYTES = 1024 * 1024;
export const DEFAULT_MAX_SEMANTIC_ENTRIES = 10_000;

/**
 * The response cache, framework-free: keys (cacheKeys), semantic matching with its guards
 * (SemanticIndex, semanticGuard), what may be stored (isCompleteAnswer, a size bound) and how a
 * hit is served (cost 0, no usage to charge, marked with its outcome). The store is given.
 */
export class ResponseCache {
  readonly store: ResponseCacheStore;
  private readonly clock: Clock;
  private readonly maxKeyInput: number;
  private readonly maxValueBytes: number;
  private readonly index: SemanticIndex;
  private readonly counts: CacheStats = {
    hits: 0,
    semanticHits: 0,
    misses: 0,
    bypasses: 0,
    stored: 0,
    notStored: 0,
    errors: 0,
    savedUsd: 0,
  };

  constructor(private readonly options: ResponseCacheOptions) {
    this.store = options.store;
    this.clock = options.clock ?? systemClock;
    this.maxKeyInput = options.maxKeyInput ?? DEFAULT_MAX_KEY_INPUT;
    this.maxValueBytes = options.maxValueBytes ?? DEFAULT_MAX_VALUE_BYTES;
    this.index = new SemanticIndex(options.maxSemanticEntries ?? DEFAULT_MAX_SEMANTIC_ENTRIES);
  }

  /**
   * The call's plan: its keys (target, partition and the whole request), whether to look up
   * (not under `no-cache`) and whether to store (not under `no-store`). A request too large to
   * key is served and not stored.
   */
  plan(
    request: ChatRequest,
    target: string,
    partition: string | undefined,
    settings: CacheSettings,
    control: CacheControl = 'default',
  ): CachePlan {
    if (control === 'no-store') return { settings, keys: undefined, lookup: false, store: false };
    const scope = settings.shared || partition === undefined ? { target } : { target, partition };
    const keys = cacheKeys(request, scope, this.maxKeyInput);
    const cacheable = keys !== undefined;
    return { settings, keys, lookup: cacheable && control !== 'no-cache', store: cacheable };
  }

  /** The stored answer for the plan, exact first, then by meaning; a store outage is a miss. */
  async lookup(plan: CachePlan, signal?: AbortSignal): Promise<CacheLookup> {
    const keys = plan.keys;
    if (!plan.lookup || keys === undefined) return this.count({ outcome: 'bypass' });
    const exact = await this.read(keys.exact);
    if (exact !== undefined) return this.count({ outcome: 'hit', answer: exact });
    const semantic = plan.settings.semantic;
    if (semantic !== undefined && keys.bucket !== undefined) {
      const vector = await this.embed(plan, signal);
      if (signal?.aborted) throw abortReason(signal);
      if (vector !== undefined) {
        const guard = semanticGuard(keys.lastUserText!);
        const match = this.index.nearest(
          keys.bucket,
          vector,
          guard,
          semantic.threshold,
          this.clock(),
        );
        const answer = match === undefined ? undefined : await this.read(match.key);
        if (answer !== undefined) {
          return this.count({ outcome: 'semantic-hit', answer, similarity: match!.similarity });
        }
      }
    }
    return this.count({ outcome: 'miss' });
  }

  /**
   * Stores a complete answer (streamed ones with their chunks); anything else, or an answer
   * larger than the bound, is not stored. Never throws: a store outage is counted.
   */
  async save(plan: CachePlan, answer: CachedAnswer): Promise<boolean> {
    const keys = plan.keys;
    if (!plan.store || keys === undefined) return false;
    if (!isCompleteAnswer(answer.response)) {
      this.counts.notStored++;
      return false;
    }
    const json = JSON.stringify(answer);
    if (json.length > this.maxValueBytes) {
      this.counts.notStored++;
      return false;
    }
    const { ttlMs, semantic } = plan.settings;
    try {
      await this.store.set(keys.exact, answer, ttlMs, json);
    } catch {
      this.counts.errors++;
      return false;
    }
    this.counts.stored++;
    if (semantic !== undefined && keys.bucket !== undefined) {
      const vector = await this.embed(plan);
      if (vector !== undefined) {
        const guard = semanticGuard(keys.lastUserText!);
        this.index.add(keys.bucket, vector, guard, keys.exact, this.clock() + ttlMs);
      }
    }
    return true;
  }

  /**
   * The response a hit serves: the stored one, marked with the outcome (and similarity), costing
   * nothing and reporting no token usage, so no budget, window or quota is charged for it.
   */
  served(lookup: CacheLookup): ChatResponse {
    const { response } = lookup.answer!;
    const attributes: Record<string, unknown> = {
      ...response.aiMessage.attributes,
      [COST_ATTRIBUTE]: 0,
      ...cacheAttribute.entry(lookup.outcome),
      ...(lookup.similarity !== undefined
        ? cacheSimilarityAttribute.entry(Math.round(lookup.similarity * 1000) / 1000)
        : {}),
    };
    // the stored answer's routing decision was another call's: feedback on it is that caller's
    delete attributes[DECISION_ATTRIBUTE];
    return {
      ...response,
      aiMessage: { ...response.aiMessage, attributes },
      tokenUsage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    };
  }

  stats(): CacheStats {
    return { ...this.counts };
  }

  /** Hits (exact and semantic) over lookups, 0 before any lookup. */
  hitRate(): number {
    const { hits, semanticHits, misses } = this.counts;
    const lookups = hits + semanticHits + misses;
    return lookups === 0 ? 0 : (hits + semanticHits) / lookups;
  }

  close(): Promise<void> | void {
    return this.store.close?.();
  }

  private async read(key: string): Promise<CachedAnswer | undefined> {
    try {
      return (await this.store.get(key)) ?? undefined;
    } catch {
      this.counts.errors++;
      return undefined;
    }
  }

  private async embed(plan: CachePlan, signal?: AbortSignal): Promise<Float32Array | undefined> {
    if (plan.vector !== undefined) return plan.vector;
    const embeddings = this.options.embeddings;
    if (embeddings === undefined) return undefined;
    try {
      const result = await embeddings.embed([plan.keys!.lastUserText!], signal ? { signal } : {});
      const values = result.vectors[0];
      plan.vector = values === undefined ? undefined : unitVector(values);
      return plan.vector;
    } catch {
      this.counts.errors++;
      return undefined;
    }
  }

  private count(lookup: CacheLookup): CacheLookup {
    if (lookup.outcome === 'hit') this.counts.hits++;
    else if (lookup.outcome === 'semantic-hit') this.counts.semanticHits++;
    else if (lookup.outcome === 'miss') this.counts.misses++;
    else this.counts.bypasses++;
    if (lookup.answer !== undefined) {
      this.counts.savedUsd += costAttributeOf(lookup.answer.response) ?? 0;
    }
    return lookup;
  }
}
