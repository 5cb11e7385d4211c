import { Logger } from '@nestjs/common';
import type { Counter, Gauge, Histogram, Metric, Registry } from 'prom-client';
import { InvalidConfigurationException } from '../../core/errors/exceptions.js';
import { logSafe } from '../../core/observability/log-safe.js';
import type { RoutingEvent } from '../../core/observability/routing-event.js';
import { scrubCredentials } from '../../core/observability/scrub-credentials.js';
import type { RouterInspection } from '../module/model-router-registry.js';
import type { PromClient } from './load-prom-client.js';
import { kindLabel, nameLabel, outcomeOfError } from './metric-labels.js';
import {
  DEFAULT_METRICS_PREFIX,
  LLM_DURATION_BUCKETS,
  type MetricNameLabel,
  type ModelRouterMetricsOptions,
} from './model-router-metrics-options.js';
import { type ModelStateLabel, writeModelStates } from './model-state-gauge.js';
import { metricNames, type ModelRouterMetricNames } from './metric-names.js';
import type {
  FinishedCall,
  FinishedEmbedding,
  RouteShareReading,
  TeacherReading,
} from './metric-records.js';
import { DecisionMetrics } from './decision-metrics.js';
import { CallSeriesCache } from './call-series.js';

export type { ModelRouterMetricNames } from './metric-names.js';
export type {
  FinishedCall,
  FinishedEmbedding,
  RouteShareReading,
  TeacherReading,
} from './metric-records.js';

type CallLabel = 'router' | 'route' | 'model';

/**
 * The model router's Prometheus metrics in one registry. Labels carry names only (router, route,
 * model, error kind, outcome): never an error message or anything a provider said.
 */
export class ModelRouterMetrics {
  readonly registry: Registry;
  readonly names: ModelRouterMetricNames;
  protected readonly logger = new Logger('ModelRouterMetrics');
  protected readonly requests: Counter<CallLabel | 'outcome'>;
  protected readonly requestDuration: Histogram<CallLabel>;
  protected readonly tokens: Counter<CallLabel | 'type'>;
  protected readonly estimatedUsage: Counter<CallLabel>;
  protected readonly modelFailures: Counter<CallLabel | 'kind'>;
  protected readonly failovers: Counter<'router' | 'route'>;
  protected readonly retries: Counter<'router' | 'model'>;
  /** Decision routers: failures, target shares, the teacher's decisions and share. */
  protected readonly decisions: DecisionMetrics;
  protected readonly modelState: Gauge<ModelStateLabel>;
  protected readonly cost: Counter<CallLabel>;
  protected readonly cacheLookups: Counter<'router' | 'outcome'>;
  protected readonly cacheSavedUsd: Counter<'router'>;
  protected readonly embeddingRequests: Counter<'model' | 'outcome'>;
  protected readonly embeddingTokens: Counter<'model'>;
  protected readonly hedges: Counter<'router' | 'route' | 'outcome'>;
  protected readonly downgrades: Counter<'router' | 'budget' | 'to'>;
  private inspect: (() => RouterInspection[]) | undefined;
  private readonly registered: Metric[] = [];
  private readonly labelFor: ModelRouterMetricsOptions['labelFor'];
  private readonly series = new CallSeriesCache((name, label) => this.labelOf(name, label));

  constructor(prom: PromClient, options: ModelRouterMetricsOptions = {}) {
    const prefix = options.prefix ?? DEFAULT_METRICS_PREFIX;
    this.registry = options.registry ?? prom.register;
    this.labelFor = options.labelFor;
    this.names = metricNames(prefix);
    this.assertNamesFree();
    // registers: [] then registerMetric: a clash fails before anything half-registers
    this.requests = this.register(
      new prom.Counter({
        name: this.names.requests,
        help: 'Chat calls through RoutingChatService, by the route and model that served them and outcome (ok, error, cancelled).',
        labelNames: ['router', 'route', 'model', 'outcome'],
        registers: [],
      }),
    );
    this.cacheLookups = this.register(
      new prom.Counter({
        name: this.names.cacheLookups,
        help: 'Chat calls of cached routers by how the response cache took part (hit, semantic-hit, miss, bypass).',
        labelNames: ['router', 'outcome'],
        registers: [],
      }),
    );
    this.cacheSavedUsd = this.register(
      new prom.Counter({
        name: this.names.cacheSavedUsd,
        help: 'USD the response cache saved: what the answers it served cost when they were made.',
        labelNames: ['router'],
        registers: [],
      }),
    );
    this.requestDuration = this.register(
      new prom.Histogram({
        name: this.names.requestDuration,
        help: 'Duration of chat calls through RoutingChatService (every outcome), in seconds.',
        labelNames: ['router', 'route', 'model'],
        buckets: [...(options.durationBuckets ?? LLM_DURATION_BUCKETS)],
        registers: [],
      }),
    );
    this.tokens = this.register(
      new prom.Counter({
        name: this.names.tokens,
        help: 'Tokens reported by the models that answered (type: input, output, or the parts of input cached_input and cache_write).',
        labelNames: ['router', 'route', 'model', 'type'],
        registers: [],
      }),
    );
    this.estimatedUsage = this.register(
      new prom.Counter({
        name: this.names.estimatedUsage,
        help: 'Answered calls whose model did not report its token usage: their tokens (in tokens_total, cost and budgets too) were estimated from the text sent and received.',
        labelNames: ['router', 'route', 'model'],
        registers: [],
      }),
    );
    this.modelFailures = this.register(
      new prom.Counter({
        name: this.names.modelFailures,
        help: 'Failed model attempts, including those a retry or failover hid from the caller, by error kind.',
        labelNames: ['router', 'route', 'model', 'kind'],
        registers: [],
      }),
    );
    this.failovers = this.register(
      new prom.Counter({
        name: this.names.failovers,
        help: 'Failovers from a failed model to the next one in a group.',
        labelNames: ['router', 'route'],
        registers: [],
      }),
    );
    this.retries = this.register(
      new prom.Counter({
        name: this.names.retries,
        help: 'Retries of the same model after a transient failure.',
        labelNames: ['router', 'model'],
        registers: [],
      }),
    );
    this.hedges = this.register(
      new prom.Counter({
        name: this.names.hedges,
        help: 'Hedged requests: fired, then won by the hedge or by the model called first.',
        labelNames: ['router', 'route', 'outcome'],
        registers: [],
      }),
    );
    this.decisions = new DecisionMetrics(
      prom,
      this.names,
      (metric) => this.register(metric),
      (name, label) => this.labelOf(name, label),
    );
    this.cost = this.register(
      new prom.Counter({
        name: this.names.cost,
        help: 'USD spent on calls answered by models with pricing (usage × the model profile’s price); calls to unpriced models are not counted.',
        labelNames: ['router', 'route', 'model'],
        registers: [],
      }),
    );
    this.embeddingRequests = this.register(
      new prom.Counter({
        name: this.names.embeddingRequests,
        help: 'Embedding calls, by the embedding model they addressed and outcome (ok, error, cancelled).',
        labelNames: ['model', 'outcome'],
        registers: [],
      }),
    );
    this.embeddingTokens = this.register(
      new prom.Counter({
        name: this.names.embeddingTokens,
        help: 'Input tokens reported by the embedding models that answered.',
        labelNames: ['model'],
        registers: [],
      }),
    );
    this.downgrades = this.register(
      new prom.Counter({
        name: this.names.downgrades,
        help: 'Calls a spent budget sent to its fallback instead of refusing them, by budget and fallback.',
        labelNames: ['router', 'budget', 'to'],
        registers: [],
      }),
    );
    const collectStates = () => this.collectModelStates();
    this.modelState = this.register(
      new prom.Gauge({
        name: this.names.modelState,
        help: 'Current state of each model (1 for its state among available, cooldown, half-open; 0 for the others), read on scrape.',
        labelNames: ['router', 'route', 'model', 'state'],
        registers: [],
        collect() {
          collectStates();
        },
      }),
    );
  }

  /** The text exposition of the whole registry (what `GET /metrics` returns). */
  scrape(): Promise<string> {
    return this.registry.metrics();
  }

  /** The Content-Type header of `scrape()`'s output. */
  get contentType(): string {
    return this.registry.contentType;
  }

  /** Where the state gauge reads model states from on each scrape (the routers' inspection). */
  bindInspection(inspect: () => RouterInspection[]): void {
    this.inspect = inspect;
  }

  recordCall(call: FinishedCall): void {
    const series = this.series.of(call.router, call.route, call.model);
    const { labels } = series;
    this.requests.inc(series.outcome.get(call.outcome) ?? { ...labels, outcome: call.outcome });
    this.requestDuration.observe(labels, Math.max(0, call.durationMs) / 1000);
    if (call.cache !== undefined) {
      this.cacheLookups.inc({ router: labels.router, outcome: call.cache });
      const saved = call.cacheSavedUsd;
      if (typeof saved === 'number' && Number.isFinite(saved) && saved > 0) {
        this.cacheSavedUsd.inc({ router: labels.router }, saved);
      }
    }
    if (call.outcome !== 'ok') return;
    const input = tokenCount(call.tokenUsage?.inputTokens);
    const output = tokenCount(call.tokenUsage?.outputTokens);
    if (input > 0) this.tokens.inc(series.tokens.input, input);
    if (output > 0) this.tokens.inc(series.tokens.output, output);
    if (call.tokenUsage?.estimated === true) this.estimatedUsage.inc(labels);
    // parts of the input, served from or written to the provider's prompt cache
    const cached = tokenCount(call.tokenUsage?.cachedInputTokens);
    const written = tokenCount(call.tokenUsage?.cacheWriteInputTokens);
    if (cached > 0) this.tokens.inc(series.tokens.cached_input, cached);
    if (written > 0) this.tokens.inc(series.tokens.cache_write, written);
    const cost = call.costUsd;
    if (typeof cost === 'number' && Number.isFinite(cost) && cost > 0) this.cost.inc(labels, cost);
  }

  recordEmbedding(call: FinishedEmbedding): void {
    const model = this.labelOf(call.model, 'model');
    this.embeddingRequests.inc({ model, outcome: call.outcome });
    const tokens = call.outcome === 'ok' ? tokenCount(call.inputTokens) : 0;
    if (tokens > 0) this.embeddingTokens.inc({ model }, tokens);
  }

  /** Counts an embeddings call that threw: `cancelled` when its caller aborted it, else `error`. */
  recordFailedEmbedding(model: string, error: unknown, signal: AbortSignal): void {
    this.recordEmbedding({ model, outcome: outcomeOfError(error, signal) });
  }

  /** Where the share gauge reads decision routers' target shares from on each scrape. */
  bindRouteShares(read: () => RouteShareReading[]): void {
    this.decisions.bindRouteShares(read);
  }

  /** Where the teacher's decisions and share are read from on each scrape. */
  bindTeacherStats(read: () => TeacherReading[]): void {
    this.decisions.bindTeacherStats(read);
  }

  /** Counts one routing event of a call served by `router` (`route`: the call's route so far). */
  recordEvent(router: string | undefined, route: string | undefined, event: RoutingEvent): void {
    const routerLabel = this.labelOf(router, 'router');
    switch (event.type) {
      case 'model-failed':
        this.modelFailures.inc({
          router: routerLabel,
          route: this.labelOf(event.route ?? route, 'route'),
          model: this.labelOf(event.model, 'model'),
          kind: kindLabel(event.kind),
        });
        return;
      case 'failover':
        this.failovers.inc({
          router: routerLabel,
          route: this.labelOf(event.route ?? route, 'route'),
        });
        return;
      case 'model-retry':
        this.retries.inc({ router: routerLabel, model: this.labelOf(event.model, 'model') });
        return;
      case 'hedge-fired':
      case 'hedge-won':
        this.hedges.inc({
          router: routerLabel,
          route: this.labelOf(event.route ?? route, 'route'),
          outcome:
            event.type === 'hedge-fired' ? 'fired' : event.hedge ? 'won-by-hedge' : 'won-by-first',
        });
        return;
      case 'decision-failed':
        this.decisions.recordFailure(routerLabel);
        return;
      case 'budget-downgraded':
        this.downgrades.inc({
          router: routerLabel,
          budget: nameLabel(event.budget),
          to: this.labelOf(event.to, 'model'),
        });
        return;
      default:
        return;
    }
  }

  /** Removes these metrics from the registry (the module does it when the application closes). */
  unregister(): void {
    for (const metric of this.registered.splice(0)) {
      const name = (metric as unknown as { name: string }).name;
      if (this.registry.getSingleMetric(name) === metric) this.registry.removeSingleMetric(name);
    }
  }

  /** The label value of a name: the `labelFor` option's, then scrubbed and capped. */
  protected labelOf(name: string | undefined, label: MetricNameLabel): string {
    if (this.labelFor === undefined || typeof name !== 'string' || name === '') {
      return nameLabel(name);
    }
    const mapped: unknown = this.labelFor(name, label);
    return typeof mapped === 'string' ? nameLabel(mapped) : '';
  }

  protected collectModelStates(): void {
    if (!this.inspect) {
      this.modelState.reset();
      return;
    }
    try {
      writeModelStates(this.modelState, this.inspect(), (name, label) => this.labelOf(name, label));
    } catch (error) {
      // a router whose inspection throws must not break the whole scrape
      this.modelState.reset();
      this.logger.warn(
        logSafe(
          `Could not read model states for ${this.names.modelState}: ${scrubCredentials(
            error instanceof Error ? `${error.name}: ${error.message}` : String(error),
          )}`,
        ),
      );
    }
  }

  private register<T extends Metric>(metric: T): T {
    this.registry.registerMetric(metric);
    this.registered.push(metric);
    return metric;
  }

  private assertNamesFree(): void {
    const taken = Object.values(this.names).filter(
      (name) => this.registry.getSingleMetric(name) !== undefined,
    );
    if (taken.length > 0) {
      throw new InvalidConfigurationException(
        `ModelRouterMetricsModule: the registry already has metrics named ${taken.join(', ')}; ` +
          'use one ModelRouterMetricsModule per registry, or give this one its own `registry` or `prefix`',
      );
    }
  }
}

function tokenCount(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}
