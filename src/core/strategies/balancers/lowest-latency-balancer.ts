import type { ChatRequest } from '../../chat/request.js';
import type { ChatResponse } from '../../chat/response.js';
import { InvalidConfigurationException } from '../../errors/exceptions.js';
import type { ChatModelWrapper } from '../../chat/chat-model-wrapper.js';
import { countersOf } from '../../state/counter-store.js';
import type { StrategyCallContext } from '../model-routing-strategy.js';
import { Balancer, type BalancerOptions } from './balancer.js';

export interface LowestLatencyBalancerOptions extends BalancerOptions {
  /** Weight of the newest sample in the decaying average (0–1]; default 0.3. */
  alpha?: number;
  /** Share of calls sent to the least recently measured other model; default 0.05. */
  explore?: number;
  /** A measurement older than this is forgotten, and the model measured afresh; default 10 min. */
  ttlMs?: number;
}

type Kind = 'chat' | 'stream';

/**
 * The model with the lowest decaying average latency: of the whole answer for plain calls, of
 * the first token for streams (what a streaming user waits for). A model never measured (or
 * forgotten) is tried first, and a small share of calls goes to the model measured longest ago,
 * so a slower model that recovered is found again. Averages are store gauges: with a shared
 * store every replica balances on what all of them measured.
 */
export class LowestLatencyBalancer extends Balancer {
  readonly name = 'lowest-latency' as const;
  private readonly alpha: number;
  private readonly every: number;
  private readonly ttlMs: number;
  private calls = 0;
  /** When each in-flight attempt started (and whether it streams), keyed by its context. */
  private readonly started = new WeakMap<object, { at: number; measured: boolean }>();

  constructor(options: LowestLatencyBalancerOptions = {}) {
    super(options);
    const { alpha = 0.3, explore = 0.05, ttlMs = 600_000 } = options ?? {};
    if (!(alpha > 0 && alpha <= 1)) {
      throw new InvalidConfigurationException(`alpha must be in (0, 1]; got ${String(alpha)}.`);
    }
    if (!(explore >= 0 && explore < 1)) {
      throw new InvalidConfigurationException(`explore must be in [0, 1); got ${String(explore)}.`);
    }
    if (!(ttlMs > 0)) throw new InvalidConfigurationException('ttlMs must be positive.');
    this.alpha = alpha;
    this.every = explore === 0 ? Number.POSITIVE_INFINITY : Math.round(1 / explore);
    this.ttlMs = ttlMs;
  }

  /** The decaying average in ms, or undefined while the model is unmeasured. */
  latencyOf(model: ChatModelWrapper | string, kind: Kind = 'chat'): number | undefined {
    return countersOf(this.store).getGauge(this.key(model, `latency-${kind}`));
  }

  onFirstToken(
    model: ChatModelWrapper,
    _request: ChatRequest,
    context?: StrategyCallContext,
  ): void {
    const start = context && this.started.get(context);
    if (!start || start.measured) return;
    start.measured = true;
    this.sample(model, 'stream', this.clock() - start.at);
  }

  onSuccess(
    model: ChatModelWrapper,
    _response: ChatResponse,
    _request: ChatRequest,
    context?: StrategyCallContext,
  ): void {
    const start = context && this.started.get(context);
    if (!start) return;
    this.started.delete(context!);
    if (!start.measured)
      this.sample(model, context?.stream ? 'stream' : 'chat', this.clock() - start.at);
  }

  onFailure(
    _m: ChatModelWrapper,
    _e: unknown,
    _r: ChatRequest,
    context?: StrategyCallContext,
  ): void {
    // a failure says nothing about speed; the circuit breaker judges it
    if (context) this.started.delete(context);
  }

  onCancel(
    _m: ChatModelWrapper,
    _e: unknown,
    _r: ChatRequest,
    context?: StrategyCallContext,
  ): void {
    if (context) this.started.delete(context);
  }

  protected pick(
    models: readonly ChatModelWrapper[],
    _request: ChatRequest,
    context: StrategyCallContext | undefined,
  ): ChatModelWrapper {
    const kind: Kind = context?.stream ? 'stream' : 'chat';
    const latencies = models.map((model) => this.latencyOf(model, kind));
    const unmeasured = latencies.indexOf(undefined);
    if (unmeasured >= 0) return models[unmeasured]!;
    let best = 0;
    for (let i = 1; i < models.length; i++) if (latencies[i]! < latencies[best]!) best = i;
    this.calls += 1;
    if (this.calls % this.every !== 0) return models[best]!;
    // exploration: the other model whose measurement is oldest
    let oldest = -1;
    let oldestAt = Number.POSITIVE_INFINITY;
    for (let i = 0; i < models.length; i++) {
      if (i === best) continue;
      const at = countersOf(this.store).getGauge(this.key(models[i]!, `measured-${kind}`)) ?? 0;
      if (at < oldestAt) {
        oldest = i;
        oldestAt = at;
      }
    }
    return models[oldest]!;
  }

  protected override dispatched(
    _model: ChatModelWrapper,
    _request: ChatRequest,
    context: StrategyCallContext | undefined,
  ): void {
    if (context) this.started.set(context, { at: this.clock(), measured: false });
  }

  private sample(model: ChatModelWrapper, kind: Kind, ms: number): void {
    const counters = countersOf(this.store);
    const key = this.key(model, `latency-${kind}`);
    const previous = counters.getGauge(key);
    const value = previous === undefined ? ms : previous + this.alpha * (ms - previous);
    try {
      counters.setGauge(key, value, this.ttlMs);
      counters.setGauge(this.key(model, `measured-${kind}`), this.clock(), this.ttlMs);
    } catch {
      // a lost sample only delays what the average learns
    }
  }
}
