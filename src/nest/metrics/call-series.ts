import type { CallOutcome } from './metric-labels.js';
import type { MetricNameLabel } from './model-router-metrics-options.js';

export interface CallLabels {
  router: string;
  route: string;
  model: string;
}

const OUTCOMES: readonly CallOutcome[] = ['ok', 'error', 'cancelled'];

type TokenType = 'input' | 'output' | 'cached_input' | 'cache_write';

/** The label sets of one router, route and model's series, each an object of its own. */
export interface CallSeries {
  labels: CallLabels;
  /** By outcome; a Map, so no outcome a caller makes up reads a prototype's member. */
  outcome: ReadonlyMap<string, CallLabels & { outcome: string }>;
  tokens: Record<TokenType, CallLabels & { type: TokenType }>;
}

/** Distinct series remembered; past it the cache starts over (the configured ones come back). */
const MAX_SERIES = 1_000;

/**
 * The label sets of every series a call counts in, built once per router, route and model (a
 * `labelFor` call and a lookup per name, and four to six objects a call before): the same few
 * come back on every call.
 */
export class CallSeriesCache {
  private readonly byRouter = new Map<string, Map<string, Map<string, CallSeries>>>();
  private size = 0;

  constructor(
    private readonly labelOf: (name: string | undefined, label: MetricNameLabel) => string,
  ) {}

  of(router = '', route = '', model = ''): CallSeries {
    let byRoute = this.byRouter.get(router);
    let byModel = byRoute?.get(route);
    const known = byModel?.get(model);
    if (known !== undefined) return known;
    if (this.size >= MAX_SERIES) {
      this.byRouter.clear();
      this.size = 0;
      byRoute = byModel = undefined;
    }
    if (byRoute === undefined) this.byRouter.set(router, (byRoute = new Map()));
    if (byModel === undefined) byRoute.set(route, (byModel = new Map()));
    const series = this.build(router, route, model);
    byModel.set(model, series);
    this.size++;
    return series;
  }

  private build(router: string, route: string, model: string): CallSeries {
    const labels = {
      router: this.labelOf(router, 'router'),
      route: this.labelOf(route, 'route'),
      model: this.labelOf(model, 'model'),
    };
    const withType = (type: TokenType) => ({ ...labels, type });
    return {
      labels,
      outcome: new Map(OUTCOMES.map((outcome) => [outcome, { ...labels, outcome }])),
      tokens: {
        input: withType('input'),
        output: withType('output'),
        cached_input: withType('cached_input'),
        cache_write: withType('cache_write'),
      },
    };
  }
}
