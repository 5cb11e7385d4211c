import type { ChatStreamEvent } from '../../core/chat/chat-model.js';
import type { ChatResponse } from '../../core/chat/response.js';
import { type AnswerChunk, replayEvents } from '../../core/cache/cache-entry.js';
import { type ResponseCacheConfig, routerCacheSettings } from '../../core/cache/cache-config.js';
import { DEFAULT_REPLAY_PACING, pacedReplay, type Sleep } from '../../core/cache/replay-pacing.js';
import {
  type CacheControl,
  type CacheLookup,
  type CachePlan,
  type CacheSettings,
  type CacheStats,
  DEFAULT_MAX_VALUE_BYTES,
  ResponseCache,
} from '../../core/cache/response-cache.js';
import { costAttributeOf } from '../../core/cost/cost.js';
import { BUDGET_DIMENSIONS } from '../../core/budget/budget.js';
import type { Clock } from '../../core/clock.js';
import { systemClock } from '../../core/clock.js';
import type { ChatInterceptorContext } from '../interceptors/chat-interceptor-context.js';
import { MemoryResponseCacheStore } from './memory-response-cache-store.js';

/** The calls of one caller are cached apart from another's: by the key the app named. */
const PARTITION_ATTRIBUTE = BUDGET_DIMENSIONS.key;

/**
 * The response cache around the router call of RoutingChatService: one plan per call (the
 * router's settings, the caller's partition, `Cache-Control`), then a lookup before the router
 * and, on a miss, the answer stored once it is complete. A hit never reaches the router: no
 * provider call, no budget, limit or quota charged; the call's record says how it was served.
 */
export class CallCache {
  readonly cache: ResponseCache;
  /** Told of every lookup (the module publishes it as an event). */
  onLookup: ((context: ChatInterceptorContext) => void) | undefined;
  private readonly settings = new Map<string | undefined, CacheSettings | undefined>();

  constructor(
    private readonly config: ResponseCacheConfig,
    private readonly clock: Clock = systemClock,
    private readonly sleep?: Sleep,
  ) {
    const store =
      config.store === undefined || config.store === 'memory'
        ? new MemoryResponseCacheStore({
            ...(config.maxEntries !== undefined ? { maxEntries: config.maxEntries } : {}),
            ...(config.maxBytes !== undefined ? { maxBytes: config.maxBytes } : {}),
            clock,
          })
        : config.store;
    this.cache = new ResponseCache({
      store,
      clock,
      ...(config.embeddings ? { embeddings: config.embeddings } : {}),
      ...(config.maxValueBytes !== undefined ? { maxValueBytes: config.maxValueBytes } : {}),
    });
  }

  /** The call's plan, or undefined when its router (or direct model) is not cached. */
  plan(context: ChatInterceptorContext, control: CacheControl): CachePlan | undefined {
    const settings = this.settingsOf(context.routerName);
    if (settings === undefined) return undefined;
    const partition = context.attributes[PARTITION_ATTRIBUTE];
    const target = context.routerName ?? `model:${context.target ?? ''}`;
    return this.cache.plan(
      context.request,
      target,
      typeof partition === 'string' ? partition : undefined,
      settings,
      control,
    );
  }

  /** A plain call: the cached answer, else the router's (stored when complete). */
  async chat(
    context: ChatInterceptorContext,
    plan: CachePlan,
    call: () => Promise<ChatResponse>,
  ): Promise<ChatResponse> {
    const lookup = await this.cache.lookup(plan, context.signal);
    this.record(context, lookup);
    if (lookup.answer !== undefined) return this.cache.served(lookup);
    const response = await call();
    void this.cache.save(plan, { response, storedAt: this.clock() });
    return response;
  }

  /**
   * A stream: a hit replays the stored chunks, paced; a miss passes the router's events on and
   * stores them with the answer only when the stream completes (a stream cut short, failed or
   * abandoned stores nothing).
   */
  async *stream(
    context: ChatInterceptorContext,
    plan: CachePlan,
    open: () => AsyncIterable<ChatStreamEvent>,
  ): AsyncGenerator<ChatStreamEvent> {
    const lookup = await this.cache.lookup(plan, context.signal);
    this.record(context, lookup);
    if (lookup.answer !== undefined) {
      const pacing = plan.settings.replay ?? DEFAULT_REPLAY_PACING;
      const response = this.cache.served(lookup);
      yield* pacedReplay(replayEvents(lookup.answer), response, pacing, context.signal, this.sleep);
      return;
    }
    const chunks: AnswerChunk[] = [];
    const bound = this.config.maxValueBytes ?? DEFAULT_MAX_VALUE_BYTES;
    let size = 0;
    let keep = plan.store;
    for await (const event of open()) {
      if (event.type === 'complete') {
        if (keep)
          void this.cache.save(plan, { response: event.response, chunks, storedAt: this.clock() });
      } else if (keep && event.type !== 'input-usage') {
        // a replay tells no input tokens: none were sent to a provider
        size += chunkSize(event);
        // too large to store: stop collecting at once rather than at the end
        if (size > bound) {
          keep = false;
          chunks.length = 0;
        } else chunks.push(event);
      }
      yield event;
    }
  }

  private record(context: ChatInterceptorContext, lookup: CacheLookup): void {
    context.recordCache(lookup.outcome, lookup.similarity, savedBy(lookup));
    try {
      this.onLookup?.(context);
    } catch {
      // a listener never fails the call
    }
  }

  stats(): CacheStats {
    return this.cache.stats();
  }

  hitRate(): number {
    return this.cache.hitRate();
  }

  close(): Promise<void> | void {
    return this.cache.close();
  }

  private settingsOf(router: string | undefined): CacheSettings | undefined {
    if (!this.settings.has(router))
      this.settings.set(router, routerCacheSettings(this.config, router));
    return this.settings.get(router);
  }
}

/** What a hit saved: the cost its answer had when it was made. */
function savedBy(lookup: CacheLookup): number | undefined {
  return lookup.answer === undefined ? undefined : costAttributeOf(lookup.answer.response);
}

function chunkSize(event: AnswerChunk): number {
  if (event.type === 'text-delta') return event.text.length + 32;
  if (event.type === 'tool-call-delta') return event.argumentsDelta.length + 64;
  if (event.type === 'tool-call') return event.toolCall.arguments.length + 128;
  return 64;
}
