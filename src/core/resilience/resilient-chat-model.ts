import { settlesOnAbort, throwIfAborted, type SettlesOnAbort } from '../chat/abort.js';
import type { Capability } from '../chat/capability.js';
import type { ChatCallOptions, ChatModel, ChatStreamEvent } from '../chat/chat-model.js';
import type { ChatRequest, ChatRequestParameters } from '../chat/request.js';
import type { ChatResponse } from '../chat/response.js';
import { streamModel } from '../chat/stream.js';
import { systemClock, type Clock } from '../clock.js';
import { InvalidConfigurationException } from '../errors/exceptions.js';
import {
  isInspectableRouting,
  type ModelStatus,
  type RouteStateBinding,
} from '../inspection/inspection.js';
import { emitTo, type RoutingObserver } from '../observability/routing-event.js';
import type { RouteStateStore } from '../state/route-state-store.js';
import { isProbeCall, routeAttribute } from '../chat/call-attributes.js';
import { AttemptScope, CallScope } from './call-scope.js';
import { IncompleteStreamException } from './incomplete-stream-exception.js';
import { RetryPolicy, type RetryEvent, type RetryPolicyOptions } from './retry-policy.js';
import { resolveTimeouts, type ResolvedTimeouts, type TimeoutOptions } from './timeout-options.js';
import { systemTimers, type Timers } from './timers.js';
import { answerDeadline, type AnswerDeadline } from './answer-deadline.js';
import {
  adaptiveStreamDeadlines,
  type AdaptiveTimeoutOptions,
  type StreamDeadlines,
} from './stream-deadlines.js';

export interface ResilienceOptions {
  /** The model's name in events and timeout messages. Default: its `modelName`, else `model`. */
  name?: string;
  /** A shared policy, or options for one. Default: `new RetryPolicy()` (3 attempts). */
  retry?: RetryPolicy | RetryPolicyOptions;
  timeouts?: TimeoutOptions;
  /**
   * `adaptive` (default): the first-token wait is learnt from the model's own times to first
   * token (AdaptiveDeadline); a number of ms: fixed at that. `timeouts.firstTokenMs` is the wait
   * until enough samples (default 12 s when adaptive).
   */
  firstTokenTimeout?: 'adaptive' | number;
  /** The same for the wait between chunks; until learnt, `timeouts.idleMs` holds. */
  idleTimeout?: 'adaptive' | number;
  /**
   * `adaptive` (default): each plain (non-streamed) attempt is bounded by what the model's plain
   * answers have taken, scaled by the answer's length (see ANSWER_DEADLINE_DEFAULTS), and
   * `timeouts.attemptMs` holds until enough samples and stays the ceiling; a number of ms:
   * every plain attempt is bounded by that.
   */
  answerTimeout?: 'adaptive' | number;
  /** How learnt waits are derived (percentile, multiplier, floor, ceiling, samples). */
  adaptive?: AdaptiveTimeoutOptions;
  /** Receives `model-retry` events, besides the observer of each call's options. */
  observer?: RoutingObserver;
  clock?: Clock;
  timers?: Timers;
}

/**
 * Makes ONE model resilient: retries with backoff for errors worth retrying on the same model,
 * and per-attempt, first-token, idle and overall timeouts, each aborting the wrapped call through
 * its AbortSignal. It never switches models: the group layer (ModelRouter) fails over on what
 * this rethrows, the last error unchanged or a ModelTimeoutException.
 *
 * A stream is retried only until its first event; after that an error propagates, because part
 * of the answer has already reached the caller.
 */
export class ResilientChatModel implements ChatModel, SettlesOnAbort {
  /**
   * Each attempt's answer is raced on the attempt's signal, linked to the caller's (here, or by a
   * model that settles on abort itself), and the backoff waits end on it: a group above races
   * the caller's signal no further.
   */
  readonly settlesOnAbort = true as const;
  readonly name: string;
  readonly policy: RetryPolicy;
  protected readonly timeouts: ResolvedTimeouts;
  /** The stream's first-token and idle waits: fixed or learnt. */
  readonly deadlines: StreamDeadlines;
  /** The bound of each plain attempt: fixed or learnt. */
  readonly answerDeadline: AnswerDeadline;
  /** The model's own `maxOutputTokens`, the length of an answer whose request says none. */
  private readonly defaultMaxOutputTokens: number | undefined;
  protected readonly observer: RoutingObserver | undefined;
  protected readonly clock: Clock;
  protected readonly timers: Timers;
  private readonly retryListeners: ((event: RetryEvent) => void)[] = [];
  /**
   * Whether an attempt's answer must be raced against its signal here: a model that settles on
   * abort (a BaseChatModel, a group) already rejects as soon as the signal it is given aborts, so
   * a second race would only add a promise and a listener per attempt; any other model may
   * ignore its signal.
   */
  private readonly racesAnswer: boolean;
  /** Present when the wrapped model is a routing component, so health still sees inside it. */
  declare readonly inspectModels?: () => ModelStatus[];
  declare readonly bindRouteState?: (binding: RouteStateBinding) => void;

  constructor(
    readonly model: ChatModel,
    options: ResilienceOptions = {},
  ) {
    if (typeof model?.chat !== 'function') {
      throw new InvalidConfigurationException(
        `ResilientChatModel needs a 'model' with a chat() function (got ${model === null ? 'null' : typeof model})`,
      );
    }
    if (options.name !== undefined && (typeof options.name !== 'string' || !options.name.trim())) {
      throw new InvalidConfigurationException(
        `Resilience option 'name' must be a non-blank string`,
      );
    }
    const defaults = model.defaultRequestParameters?.();
    this.name = options.name ?? defaults?.modelName ?? 'model';
    this.defaultMaxOutputTokens = defaults?.maxOutputTokens;
    this.racesAnswer = !settlesOnAbort(model);
    this.policy =
      options.retry instanceof RetryPolicy ? options.retry : new RetryPolicy(options.retry);
    this.timeouts = resolveTimeouts(options.timeouts);
    this.deadlines = adaptiveStreamDeadlines(options, this.timeouts);
    this.answerDeadline = answerDeadline(options, this.timeouts);
    this.observer = options.observer;
    this.clock = options.clock ?? systemClock;
    this.timers = options.timers ?? systemTimers;
    if (isInspectableRouting(model)) {
      Object.assign(this, {
        inspectModels: () => model.inspectModels(),
        bindRouteState: (binding: RouteStateBinding) => model.bindRouteState?.(binding),
      });
    }
  }

  /**
   * Shares the learnt first-token and idle waits through `store` (its latency sketches), under
   * the model's name, so every replica learns from every replica's calls. Called by the group
   * or module that binds its route state; binding the same store again changes nothing.
   */
  shareLatency(binding: { store: RouteStateStore; clock?: Clock }): void {
    const shared = {
      store: binding.store,
      key: `latency:${this.name}`,
      clock: binding.clock ?? this.clock,
    };
    this.deadlines.share(shared);
    this.answerDeadline.share(shared);
  }

  supportedCapabilities(): ReadonlySet<Capability> {
    return this.model.supportedCapabilities?.() ?? new Set();
  }

  defaultRequestParameters(): ChatRequestParameters {
    return this.model.defaultRequestParameters?.() ?? {};
  }

  async chat(request: ChatRequest, options: ChatCallOptions = {}): Promise<ChatResponse> {
    throwIfAborted(options.signal);
    const call = this.openCall(options);
    try {
      return await this.policy.execute(
        async () => {
          const attempt = call.attempt();
          const started = this.clock();
          attempt.arm(
            'attempt',
            this.answerDeadline.currentMs(
              request.parameters?.maxOutputTokens ?? this.defaultMaxOutputTokens,
              started,
              this.clock,
            ),
            started,
          );
          try {
            const pending = this.model.chat(request, { ...options, signal: attempt.signal });
            const answer = await (this.racesAnswer ? attempt.race(pending) : pending);
            const took = this.clock() - started;
            this.deadlines.observeAnswer?.(took);
            this.answerDeadline.observe(took, answer);
            return answer;
          } catch (error) {
            throw attempt.explain(error);
          } finally {
            attempt.dispose();
          }
        },
        this.executeOptions(call, options),
      );
    } finally {
      call.dispose();
    }
  }

  async *stream(
    request: ChatRequest,
    options: ChatCallOptions = {},
  ): AsyncGenerator<ChatStreamEvent> {
    throwIfAborted(options.signal);
    const call = this.openCall(options);
    let attempt: AttemptScope | undefined;
    let events: AsyncIterator<ChatStreamEvent> | undefined;
    let completed = false;
    try {
      const opened = await this.policy.execute(
        () => this.openStream(request, options, call),
        this.executeOptions(call, options),
      );
      ({ attempt, events } = opened);
      yield* opened.before;
      let next = opened.first;
      for (;;) {
        if (next.done) throw new IncompleteStreamException(this.name);
        if (next.value.type === 'complete') {
          // whole before it is handed on: a caller that stops at it (ModelRouter's failover
          // stream does) must not abort the attempt, which would close the pooled connection
          // still reading the stream's tail
          completed = true;
          yield next.value;
          return;
        }
        yield next.value;
        // Armed only while waiting on the model, so a slow consumer never looks like a stall.
        const waitStarted = this.clock();
        attempt.arm('idle', this.deadlines.idleMs(), waitStarted);
        try {
          next = await attempt.race(events.next());
        } catch (error) {
          throw attempt.explain(error);
        }
        attempt.disarm();
        if (!next.done) this.deadlines.observeGap(this.clock() - waitStarted);
      }
    } finally {
      attempt?.dispose(completed ? undefined : streamStopped());
      if (events) closeQuietly(events);
      call.dispose();
    }
  }

  /** One stream attempt, up to and including its first event (the part that may be retried). */
  protected async openStream(
    request: ChatRequest,
    options: ChatCallOptions,
    call: CallScope,
  ): Promise<{
    attempt: AttemptScope;
    events: AsyncIterator<ChatStreamEvent>;
    /** What came before the first output (input-usage): handed on with it, never alone. */
    before: ChatStreamEvent[];
    first: IteratorResult<ChatStreamEvent>;
  }> {
    const attempt = call.attempt();
    const started = this.clock();
    attempt.arm('first-token', this.deadlines.firstTokenMs(), started);
    let events: AsyncIterator<ChatStreamEvent> | undefined;
    try {
      events = streamModel(this.model, request, { ...options, signal: attempt.signal })[
        Symbol.asyncIterator
      ]();
      // input tokens told before the answer (Anthropic's message_start) are not its first token:
      // the first-token wait and a retry still cover the wait for it
      const before: ChatStreamEvent[] = [];
      let first = await attempt.race(events.next());
      while (!first.done && first.value.type === 'input-usage') {
        before.push(first.value);
        first = await attempt.race(events.next());
      }
      // An empty stream is retried like a dropped connection: nothing reached the caller yet.
      if (first.done) throw new IncompleteStreamException(this.name);
      attempt.disarm();
      this.deadlines.observeFirstToken(this.clock() - started);
      return { attempt, before, events, first };
    } catch (error) {
      const reason = attempt.explain(error);
      attempt.dispose(reason);
      if (events) closeQuietly(events);
      throw reason;
    }
  }

  protected openCall(options: ChatCallOptions): CallScope {
    return new CallScope(
      options.signal,
      this.timeouts.deadlineMs,
      this.name,
      this.timers,
      this.clock,
    );
  }

  protected executeOptions(call: CallScope, options: ChatCallOptions) {
    return {
      signal: call.signal,
      deadlineAt: call.deadlineAt,
      clock: this.clock,
      timers: this.timers,
      onRetry: (event: RetryEvent) => this.onRetry(event, options),
      // a half-open probe asks whether the model is back: one attempt, not a retried call
      ...(isProbeCall(options.attributes) ? { maxAttempts: 1 } : {}),
    };
  }

  /**
   * Hears every retry of this model, with the error's kind (an adaptive concurrency limit
   * shrinks on the 429s that a retry hides from the group). Returns the unsubscribe.
   */
  addRetryListener(listener: (event: RetryEvent) => void): () => void {
    this.retryListeners.push(listener);
    return () => {
      const index = this.retryListeners.indexOf(listener);
      if (index >= 0) this.retryListeners.splice(index, 1);
    };
  }

  /** Emits `model-retry`; override to log or count retries. */
  protected onRetry(event: RetryEvent, options: ChatCallOptions): void {
    for (const listener of this.retryListeners) {
      try {
        listener(event);
      } catch {
        // listeners watch; they never steer the call
      }
    }
    const route = routeAttribute.of(options.attributes);
    const retry = {
      type: 'model-retry' as const,
      ...(route !== undefined ? { route } : {}),
      model: this.name,
      attempt: event.attempt,
      delayMs: event.delayMs,
    };
    emitTo(options.observer, retry);
    if (this.observer !== options.observer) emitTo(this.observer, retry);
  }
}

/** `new ResilientChatModel(model, options)`, for composition: `withResilience(openAi, {...})`. */
export function withResilience(
  model: ChatModel,
  options: ResilienceOptions = {},
): ResilientChatModel {
  return new ResilientChatModel(model, options);
}

function streamStopped(): DOMException {
  return new DOMException('The stream was closed before it completed', 'AbortError');
}

/**
 * Lets the wrapped stream run its `finally` blocks (releasing its connection) without waiting:
 * a model that ignores its signal must not hold our caller too.
 */
function closeQuietly(events: AsyncIterator<ChatStreamEvent>): void {
  try {
    const closing = events.return?.();
    if (closing) closing.catch(() => undefined);
  } catch {
    // closing is best effort; the attempt's signal has already told the model to stop
  }
}
