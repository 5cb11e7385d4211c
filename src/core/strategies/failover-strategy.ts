import type { ChatRequest } from '../chat/request.js';
import type { ChatResponse } from '../chat/response.js';
import { systemClock, type Clock } from '../clock.js';
import type {
  InspectableRouting,
  ModelStatus,
  RouteStateBinding,
} from '../inspection/inspection.js';
import { summarizeError, type RoutingObserver } from '../observability/routing-event.js';
import { classifyError, dispositionOf } from '../resilience/error-classification.js';
import { retryAfterOf } from '../resilience/retry-after.js';
import { eventsOfChange } from '../circuit/circuit-events.js';
import { updateCircuit, type CircuitChange, type CircuitDraft } from '../circuit/circuit-update.js';
import { InMemoryRouteStateStore } from '../state/in-memory-route-state-store.js';
import { afterwards, attempt, chain, type MaybePromise } from '../state/maybe-async.js';
import type { CircuitRecord, RouteStateStore } from '../state/route-state-store.js';
import type { ChatModelWrapper } from '../chat/chat-model-wrapper.js';
import { resolveCircuitPolicy, type CircuitPolicy } from '../circuit/circuit-policy.js';
import {
  afterFailure,
  afterSuccess,
  canProbe,
  claimProbe,
  endCooldown,
  flushSuccesses,
  isCoolingDown,
  releaseProbe,
  type AttemptKind,
} from '../circuit/circuit-transitions.js';
import { GroupModels } from './group-models.js';
import type { ModelRoutingStrategy, StrategyCallContext } from './model-routing-strategy.js';
import { delegateTokens } from './delegate-tokens.js';
import { circuitStatus } from './circuit-status.js';
import { SlowCalls } from './slow-calls.js';
import { endOfAdmitted } from './attempt-times.js';
import { StrategyEvents } from './strategy-events.js';
import { normalizeStrategy } from './strategy-invocation.js';
import { uniqueScope } from '../state/unique-scope.js';
import { PendingSuccesses } from '../circuit/pending-successes.js';
import { validateFailoverOptions, type FailoverStrategyOptions } from './failover-options.js';

export type { FailoverStrategyOptions } from './failover-options.js';

/** Model names whose store key is kept (a gateway's ad-hoc lists name models freely). */
const MAX_KEYS = 1_000;

/**
 * Failover with a circuit breaker per model: the first model (in registration order, or as the
 * delegate chooses) whose circuit admits a request. With the defaults this is exactly the seed's
 * failover: one failure puts a model in cooldown for `cooldownMs` from the failure, and when the
 * cooldown ends the model is back for all traffic. Options turn it into a full breaker: a failure
 * threshold or rate, a limited number of half-open probes, an escalating cooldown.
 */
export class FailoverStrategy implements ModelRoutingStrategy, InspectableRouting {
  protected readonly policy: CircuitPolicy;
  protected readonly delegate?: ModelRoutingStrategy;
  protected readonly whenAllOpen: 'fail-fast' | 'try-oldest';
  protected clock: Clock;
  protected store: RouteStateStore;
  protected scope: string;
  private readonly explicit: { clock: boolean; store: boolean; scope: boolean };
  private readonly models = new GroupModels('FailoverStrategy');
  private readonly events = new StrategyEvents();
  /** How each in-flight attempt was admitted, keyed by the attempt's context. */
  private readonly admissions = new WeakMap<object, AttemptKind>();
  private readonly slowCalls: SlowCalls;
  /** Window successes not yet written to the circuit record (only with a failure-rate window). */
  private readonly successes: PendingSuccesses;
  /** The route each model was last seen serving, for events noticed outside a call. */
  private readonly routes = new Map<string, string>();
  /** The store key of each model name, under the current scope. */
  private readonly keys = new Map<string, string>();
  /** The store is in memory on our clock: a read can use the time the strategy has just read. */
  private sameClock: boolean;

  constructor(options: FailoverStrategyOptions = {}) {
    const given = options ?? {};
    this.policy = resolveCircuitPolicy(given);
    this.successes = new PendingSuccesses(
      this.policy,
      (model, batch) =>
        void this.update(model, (record) =>
          flushSuccesses(record, this.clock(), this.policy, batch),
        ),
      (work, ms) => (globalThis.setTimeout(work, ms) as { unref?: () => void }).unref?.(),
    );
    const rate = this.policy.failureRate;
    this.slowCalls = new SlowCalls(
      rate?.slowRateThreshold !== undefined ? rate.slowCallMs : undefined,
    );
    if (given.delegate !== undefined) this.delegate = normalizeStrategy(given.delegate, 'delegate');
    validateFailoverOptions(given);
    this.whenAllOpen = given.whenAllOpen ?? 'fail-fast';
    this.clock = given.clock ?? systemClock;
    this.store = given.store ?? new InMemoryRouteStateStore(this.clock);
    this.sameClock = this.storeReadsOurClock();
    this.scope = given.scope ?? uniqueScope('failover');
    this.explicit = {
      clock: given.clock !== undefined,
      store: given.store !== undefined,
      scope: given.scope !== undefined,
    };
  }

  route(
    models: readonly ChatModelWrapper[],
    request: ChatRequest,
    context?: StrategyCallContext,
  ): MaybePromise<ChatModelWrapper | undefined> {
    this.models.see(models);
    this.rememberRoute(models, context);
    const now = this.clock();
    const admissible = models.filter((model) => {
      const record = this.stored(model, now);
      return record.state === 'closed' || canProbe(record, now, this.policy);
    });
    if (admissible.length === 0) return this.allOpen(models, context, now);
    return this.choose(admissible, request, context, now);
  }

  onSuccess(
    model: ChatModelWrapper,
    response: ChatResponse,
    request: ChatRequest,
    context?: StrategyCallContext,
  ): MaybePromise<void> {
    const kind = this.admissionOf(context);
    const now = endOfAdmitted(context, kind !== undefined, this.clock);
    const slow = this.slowCalls.wasSlow(context, kind !== undefined, this.clock, now);
    if (
      this.policy.failureRate &&
      !slow &&
      this.successes.hold(model.name, this.stored(model, now), now)
    ) {
      return this.delegate?.onSuccess?.(model, response, request, context);
    }
    const pending = this.successes.take(model.name);
    const change = this.update(model, (record) =>
      afterSuccess(record, now, this.policy, kind, slow, pending),
    );
    return afterwards(change, (done) => {
      if (done) this.announce(model, done, context);
      return this.delegate?.onSuccess?.(model, response, request, context);
    });
  }

  onFailure(
    model: ChatModelWrapper,
    error: unknown,
    request: ChatRequest,
    context?: StrategyCallContext,
  ): MaybePromise<void> {
    const kind = this.admissionOf(context);
    const disposition =
      context?.disposition ?? dispositionOf(classifyError(error, context?.signal));
    const now = endOfAdmitted(context, kind !== undefined, this.clock);
    const summary = summarizeError(error);
    const retryAfterMs = retryAfterOf(error, now);
    const slow = this.slowCalls.wasSlow(context, kind !== undefined, this.clock, now);
    const pending = disposition.countsAsFailure ? this.successes.take(model.name) : undefined;
    const change = this.update(model, (record) =>
      disposition.countsAsFailure
        ? afterFailure(record, now, this.policy, summary, kind, retryAfterMs, slow, pending)
        : kind === 'probe'
          ? releaseProbe(record)
          : undefined,
    );
    return afterwards(change, (done) => {
      if (done) this.announce(model, done, context);
      return this.delegate?.onFailure?.(model, error, request, context);
    });
  }

  onCancel(
    model: ChatModelWrapper,
    reason: unknown,
    request: ChatRequest,
    context?: StrategyCallContext,
  ): MaybePromise<void> {
    const kind = this.admissionOf(context);
    const change = kind === 'probe' ? this.update(model, releaseProbe) : undefined;
    return afterwards(change, () => this.delegate?.onCancel?.(model, reason, request, context));
  }

  onFirstToken(
    model: ChatModelWrapper,
    request: ChatRequest,
    context?: StrategyCallContext,
  ): void | Promise<void> {
    this.slowCalls.firstToken(context, this.clock);
    return this.delegate?.onFirstToken?.(model, request, context);
  }

  /** Every model cooling down: ms until the first one admits probes again; else undefined. */
  retryAfterMs(models: readonly ChatModelWrapper[]): number | undefined {
    const now = this.clock();
    let earliest = Number.POSITIVE_INFINITY;
    for (const model of models) {
      const record = this.stored(model);
      if (!isCoolingDown(record, now)) return undefined;
      earliest = Math.min(earliest, record.cooldownUntil!);
    }
    return Number.isFinite(earliest) ? Math.max(0, earliest - now) : undefined;
  }

  registerModels(models: readonly ChatModelWrapper[]): void {
    this.models.register(models);
    this.delegate?.registerModels?.(models);
  }

  onEvent(listener: RoutingObserver): () => void {
    return this.events.on(listener);
  }

  /**
   * The state of every model, read with the strategy's clock. A cooldown found over here ends
   * here: the circuit turns half-open and `cooldown-ended` goes to the `onEvent` listeners.
   */
  inspectModels(): ModelStatus[] {
    const now = this.clock();
    const tokens = delegateTokens(this.delegate);
    return this.models.list().map((model) => {
      const record = this.circuitOf(model);
      if (record.state === 'open' && !isCoolingDown(record, now))
        this.noticeCooldownEnd(model, now);
      const status = circuitStatus(model.name, record, now, this.policy);
      const used = tokens.get(model.name);
      if (used !== undefined) status.tokens = used;
      return status;
    });
  }

  bindRouteState(binding: RouteStateBinding): void {
    if (!this.explicit.store) this.store = binding.store;
    if (!this.explicit.scope) this.scope = binding.scope;
    this.keys.clear();
    if (!this.explicit.clock && binding.clock) this.clock = binding.clock;
    this.sameClock = this.storeReadsOurClock();
    (this.delegate as Partial<InspectableRouting> | undefined)?.bindRouteState?.(binding);
  }

  /**
   * The circuit record of a model (for tests and custom health views), with the window's
   * successes this process has counted and not yet written.
   */
  circuitOf(model: ChatModelWrapper | string): CircuitRecord {
    const name = typeof model === 'string' ? model : model.name;
    return this.successes.view(name, this.stored(name), this.clock());
  }

  /** The record as stored: what routing decisions read (at `now`, read already, if given). */
  protected stored(model: ChatModelWrapper | string, now?: number): CircuitRecord {
    return now !== undefined && this.store instanceof InMemoryRouteStateStore && this.sameClock
      ? this.store.getCircuitAt(this.key(model), now)
      : this.store.getCircuit(this.key(model));
  }

  protected key(model: ChatModelWrapper | string): string {
    const name = typeof model === 'string' ? model : model.name;
    // one string per model: a key built per read is hashed (and allocated) again on every read
    let key = this.keys.get(name);
    if (key === undefined) {
      if (this.keys.size >= MAX_KEYS) this.keys.clear();
      key = `${this.scope}:${name}`;
      this.keys.set(name, key);
    }
    return key;
  }

  /** Picks among admissible models (the delegate's choice, else the first) and admits it. */
  protected choose(
    candidates: readonly ChatModelWrapper[],
    request: ChatRequest,
    context: StrategyCallContext | undefined,
    now: number,
  ): MaybePromise<ChatModelWrapper | undefined> {
    if (candidates.length === 0) return undefined;
    const picked = this.delegate
      ? this.delegate.route(candidates, request, context)
      : candidates[0];
    return chain(picked, (choice) => {
      if (!choice) return undefined;
      const model = candidates.find((c) => c === choice || c.name === choice.name);
      // not one of ours: ModelRouter reports it as the strategy's mistake
      if (!model) return choice;
      return chain(this.admit(model, context, now), (admitted) => {
        if (admitted) return model;
        // lost the probe slot to a concurrent request: the delegate chooses again without it
        const released = this.delegate?.onCancel?.(model, undefined, request, context);
        return chain(released ?? undefined, () =>
          this.choose(
            candidates.filter((c) => c !== model),
            request,
            context,
            now,
          ),
        );
      });
    });
  }

  /** Closed circuits admit at once; otherwise a probe slot must be claimed atomically. */
  protected admit(
    model: ChatModelWrapper,
    context: StrategyCallContext | undefined,
    now: number,
  ): MaybePromise<boolean> {
    if (this.stored(model, now).state === 'closed') return this.admitted(context, 'regular', now);
    // a store that cannot claim now admits nobody as a probe
    const claim = this.update(model, (record) => claimProbe(record, now, this.policy));
    return chain(claim, (change) => {
      if (!change) {
        // someone may have closed it meanwhile (a probe succeeded)
        return this.stored(model).state === 'closed' && this.admitted(context, 'regular', now);
      }
      this.announce(model, change, context);
      return this.admitted(context, 'probe', this.clock());
    });
  }

  /** Every circuit is open: fail fast, or force the model that has waited longest. */
  protected allOpen(
    models: readonly ChatModelWrapper[],
    context: StrategyCallContext | undefined,
    now: number,
  ): ChatModelWrapper | undefined {
    if (this.whenAllOpen === 'fail-fast' || models.length === 0 || context?.onlyIfAvailable) {
      return undefined;
    }
    const since = (model: ChatModelWrapper) => {
      const record = this.stored(model);
      return record.openedAt ?? record.lastError?.at ?? 0;
    };
    const oldest = models.reduce((best, model) => (since(model) < since(best) ? model : best));
    this.admitted(context, 'forced', now);
    return oldest;
  }

  /**
   * A circuit change that never throws: a store that cannot write now (a shared store offline)
   * loses this change, and the call, its events and the delegate's bookkeeping go on.
   */
  private update(
    model: ChatModelWrapper | string,
    decide: (record: CircuitRecord) => CircuitDraft | undefined,
  ): MaybePromise<CircuitChange | undefined> {
    return attempt(
      () => updateCircuit(this.store, this.key(model), decide),
      () => undefined,
    );
  }

  private admitted(context: StrategyCallContext | undefined, kind: AttemptKind, now: number): true {
    if (context) {
      this.admissions.set(context, kind);
      this.slowCalls.admitted(context, this.clock, now);
      // the call's own context: the router reads it to call the model as a probe
      (context as { probe?: boolean }).probe = kind === 'probe';
    }
    return true;
  }

  private admissionOf(context: StrategyCallContext | undefined): AttemptKind | undefined {
    if (!context) return undefined;
    const kind = this.admissions.get(context);
    this.admissions.delete(context);
    return kind;
  }

  private noticeCooldownEnd(model: ChatModelWrapper, now: number): void {
    const change = this.update(model, (record) => endCooldown(record, now));
    void chain(change, (done) => {
      if (done) this.announce(model, done, undefined);
    });
  }

  /** Turns a committed change into events: cooldown started or ended, circuit state changed. */
  private announce(
    model: ChatModelWrapper,
    change: CircuitChange,
    context: StrategyCallContext | undefined,
  ): void {
    const route = context?.route ?? this.routes.get(model.name);
    const base = { ...(route !== undefined ? { route } : {}), model: model.name };
    for (const event of eventsOfChange(base, change)) this.events.deliver(event, context);
  }

  private storeReadsOurClock(): boolean {
    return this.store instanceof InMemoryRouteStateStore && this.store.clock === this.clock;
  }

  private rememberRoute(
    models: readonly ChatModelWrapper[],
    context: StrategyCallContext | undefined,
  ): void {
    if (context?.route === undefined) return;
    for (const model of models) this.routes.set(model.name, context.route);
  }
}
