import type { Clock } from '../clock.js';
import type { RouteStateStore } from '../state/route-state-store.js';
import { DecisionFeedbackException } from './decision-feedback.js';
import type {
  ChoiceQuestion,
  DecisionInput,
  DecisionModel,
  LearnRequest,
} from './decision-model.js';
import { newDecisionId } from './decision-records.js';

/** One learned example as it is shared: the input, its option, and who taught it. */
export interface LearnedExample {
  readonly id: string;
  /** The option (route) it is an example of. */
  readonly route: string;
  readonly input: DecisionInput;
  /** Who taught it: a caller scope, `teacher`, `file`; absent for trusted code and admins. */
  readonly source?: string;
  /** The caller whose decisions alone it moves (untrusted feedback); absent when shared. */
  readonly scope?: string;
  /** Epoch ms. */
  readonly at: number;
}

export interface LearnedExamplesOptions {
  /** Most learned examples kept per route (the oldest go first). Default 50. */
  maxPerRoute?: number;
  /**
   * The share of a route's learned examples one untrusted source (a caller scope) may hold:
   * feedback beyond it is refused, so one key cannot rewrite a route. Default 0.2.
   */
  maxSourceShare?: number;
  /** How often (ms) a router re-reads what other replicas learned from the store. Default 5 s. */
  syncIntervalMs?: number;
}

export const DEFAULT_MAX_LEARNED_PER_ROUTE = 50;
export const DEFAULT_MAX_SOURCE_SHARE = 0.2;
export const DEFAULT_LEARNED_SYNC_MS = 5_000;

/** Longest input text kept as an example: a pasted document teaches little past its start. */
const MAX_EXAMPLE_CHARS = 4_000;

/**
 * A decision router's learned examples, one bounded list per route in the route state store
 * (`learned:{<router scope>}:<route>`, the hash tag keeping a router's lists on one Redis Cluster
 * slot), so every replica learns what one was taught and, with Redis, keeps it across restarts.
 * The decision model is told each example once, in order, through its `learn`.
 */
export class LearnedExamples {
  readonly maxPerRoute: number;
  readonly maxSourceShare: number;
  readonly syncIntervalMs: number;
  private store: RouteStateStore | undefined;
  private scope = 'router';
  /** Route → examples, oldest first, as last read or written. */
  private readonly byRoute = new Map<string, LearnedExample[]>();
  private readonly seen = new Set<string>();
  private lastSyncAt = Number.NEGATIVE_INFINITY;
  private syncing: Promise<void> | undefined;

  constructor(
    private readonly clock: Clock,
    options: LearnedExamplesOptions = {},
  ) {
    this.maxPerRoute = options.maxPerRoute ?? DEFAULT_MAX_LEARNED_PER_ROUTE;
    this.maxSourceShare = options.maxSourceShare ?? DEFAULT_MAX_SOURCE_SHARE;
    this.syncIntervalMs = options.syncIntervalMs ?? DEFAULT_LEARNED_SYNC_MS;
  }

  /** Shares the examples through `store` under `scope` (the router's unique scope). */
  bind(store: RouteStateStore, scope: string): void {
    this.store = store;
    this.scope = scope;
    this.lastSyncAt = Number.NEGATIVE_INFINITY;
  }

  /** Whether a shared store holds them (else they live in this process only). */
  get shared(): boolean {
    return typeof this.store?.appendToList === 'function';
  }

  key(route: string): string {
    return `learned:{${this.scope}}:${route}`;
  }

  /**
   * Adds an example: refused when an untrusted `source` already holds its share of the route's
   * examples; written to the store, then taught to the model.
   */
  async add(
    example: {
      route: string;
      input: DecisionInput;
      source?: string;
      trusted?: boolean;
      scope?: string;
    },
    question: ChoiceQuestion,
    model: DecisionModel,
  ): Promise<void> {
    const { route, input, source, trusted, scope } = example;
    if (!trusted && source !== undefined) this.checkShare(route, source);
    const entry: LearnedExample = {
      id: newDecisionId(),
      route,
      input: clipped(input),
      ...(source !== undefined ? { source } : {}),
      ...(scope !== undefined ? { scope } : {}),
      at: this.clock(),
    };
    if (this.shared) {
      await this.store!.appendToList!(this.key(route), JSON.stringify(entry), this.maxPerRoute);
    }
    this.remember(entry);
    await model.learn?.(learnRequest(entry, question));
  }

  /** Re-reads the store when the sync interval has passed; never throws, never waits the caller. */
  syncSoon(routes: readonly string[], question: ChoiceQuestion, model: DecisionModel): void {
    if (!this.shared || this.syncing || this.clock() - this.lastSyncAt < this.syncIntervalMs) {
      return;
    }
    void this.sync(routes, question, model).catch(() => undefined);
  }

  /** Reads every route's list from the store and teaches the model what it has not seen. */
  sync(routes: readonly string[], question: ChoiceQuestion, model: DecisionModel): Promise<void> {
    if (!this.shared) return Promise.resolve();
    this.syncing ??= (async () => {
      try {
        this.lastSyncAt = this.clock();
        for (const route of routes) {
          const raw = await this.store!.readList!(this.key(route));
          const examples = raw.map(parseExample).filter((e) => e?.route === route);
          this.byRoute.set(route, examples as LearnedExample[]);
          for (const example of examples as LearnedExample[]) {
            if (this.seen.has(example.id)) continue;
            this.seen.add(example.id);
            await model.learn?.(learnRequest(example, question));
          }
        }
        this.trimSeen();
      } finally {
        this.syncing = undefined;
      }
    })();
    return this.syncing;
  }

  /** Every learned example, per route, oldest first (for review and the status page). */
  export(): Record<string, LearnedExample[]> {
    return Object.fromEntries([...this.byRoute].map(([route, list]) => [route, [...list]]));
  }

  /** How many examples each route has learned. */
  counts(): Record<string, number> {
    return Object.fromEntries([...this.byRoute].map(([route, list]) => [route, list.length]));
  }

  private checkShare(route: string, source: string): void {
    const allowed = Math.max(1, Math.floor(this.maxSourceShare * this.maxPerRoute));
    const held = (this.byRoute.get(route) ?? []).filter((e) => e.source === source).length;
    if (held >= allowed) {
      throw new DecisionFeedbackException(
        'share-exceeded',
        `This caller already taught route '${route}' ${held} of its at most ${this.maxPerRoute} ` +
          `learned examples (${Math.round(this.maxSourceShare * 100)} % per caller); ` +
          'older examples must age out first.',
      );
    }
  }

  private remember(entry: LearnedExample): void {
    const list = this.byRoute.get(entry.route) ?? [];
    list.push(entry);
    while (list.length > this.maxPerRoute) list.shift();
    this.byRoute.set(entry.route, list);
    this.seen.add(entry.id);
  }

  /** Forget ids no list holds any more, so `seen` stays bounded by the lists. */
  private trimSeen(): void {
    const live = new Set<string>();
    for (const list of this.byRoute.values()) for (const e of list) live.add(e.id);
    for (const id of this.seen) if (!live.has(id)) this.seen.delete(id);
  }
}

function learnRequest(example: LearnedExample, question: ChoiceQuestion): LearnRequest {
  const { input, route, scope } = example;
  return scope !== undefined ? { input, question, route, scope } : { input, question, route };
}

function clipped(input: DecisionInput): DecisionInput {
  if (typeof input === 'string') return input.slice(0, MAX_EXAMPLE_CHARS);
  return {
    messages: input.messages.map((m) => ({
      role: m.role,
      text: m.text.slice(0, MAX_EXAMPLE_CHARS),
    })),
  };
}

/** A stored entry, or undefined when it is not one (another writer, a corrupted value). */
function parseExample(raw: string): LearnedExample | undefined {
  try {
    const value = JSON.parse(raw) as Partial<LearnedExample>;
    const input = value.input as unknown;
    const validInput =
      typeof input === 'string' ||
      (typeof input === 'object' &&
        input !== null &&
        Array.isArray((input as { messages?: unknown }).messages));
    if (typeof value.id !== 'string' || typeof value.route !== 'string' || !validInput) {
      return undefined;
    }
    // a scoped example whose scope is unreadable is dropped, never widened to everyone's
    if (value.scope !== undefined && typeof value.scope !== 'string') {
      return undefined;
    }
    return value as LearnedExample;
  } catch {
    return undefined;
  }
}
