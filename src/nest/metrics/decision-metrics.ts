import type { Counter, Gauge, Metric } from 'prom-client';
import type { PromClient } from './load-prom-client.js';
import type { ModelRouterMetricNames } from './metric-names.js';
import type { RouteShareReading, TeacherReading } from './metric-records.js';
import type { MetricNameLabel } from './model-router-metrics-options.js';

/**
 * The decision routers' metrics: decision model failures (counted from routing events), and
 * what is read from the routers on each scrape: routes' target shares, and how often each
 * router's teacher decided (`by="teacher"`) against its first model (`by="model"`), with the
 * teacher's share of the latest 100 decisions. A router whose report throws costs its own
 * series, never the scrape.
 */
export class DecisionMetrics {
  readonly failures: Counter<'router'>;
  private readonly routeShare: Gauge<'router' | 'route' | 'kind'>;
  private readonly teacherDecisions: Counter<'router' | 'by'>;
  private readonly teacherShare: Gauge<'router'>;
  private routeShares: (() => RouteShareReading[]) | undefined;
  private teacherStats: (() => TeacherReading[]) | undefined;

  constructor(
    prom: PromClient,
    names: ModelRouterMetricNames,
    register: <T extends Metric>(metric: T) => T,
    private readonly labelOf: (name: string | undefined, label: MetricNameLabel) => string,
  ) {
    this.failures = register(
      new prom.Counter({
        name: names.decisionFailures,
        help: 'Decision model failures (handled by the fallback strategy or rethrown).',
        labelNames: ['router'],
        registers: [],
      }),
    );
    const collectShares = () => this.collectRouteShares();
    this.routeShare = register(
      new prom.Gauge({
        name: names.routeShare,
        help: 'Routes with a targetShare: the target and the share achieved over the window (kind: target or achieved), read on scrape.',
        labelNames: ['router', 'route', 'kind'],
        registers: [],
        collect() {
          collectShares();
        },
      }),
    );
    const collectDecisions = () => this.writeTeacherDecisions(this.readTeacherStats());
    const collectShare = () => this.writeTeacherShare(this.readTeacherStats());
    this.teacherDecisions = register(
      new prom.Counter({
        name: names.teacherDecisions,
        help: 'Decisions of decision routers with a teacher, by who decided: the first model alone (by="model") or the teacher it asked when unsure (by="teacher"); read on scrape.',
        labelNames: ['router', 'by'],
        registers: [],
        collect() {
          collectDecisions();
        },
      }),
    );
    this.teacherShare = register(
      new prom.Gauge({
        name: names.teacherShare,
        help: "The teacher's share of each decision router's latest 100 decisions (bounded by maxTeacherShare), read on scrape.",
        labelNames: ['router'],
        registers: [],
        collect() {
          collectShare();
        },
      }),
    );
  }

  bindRouteShares(read: () => RouteShareReading[]): void {
    this.routeShares = read;
  }

  bindTeacherStats(read: () => TeacherReading[]): void {
    this.teacherStats = read;
  }

  recordFailure(router: string): void {
    this.failures.inc({ router });
  }

  private collectRouteShares(): void {
    this.routeShare.reset();
    try {
      for (const share of this.routeShares?.() ?? []) {
        const labels = {
          router: this.labelOf(share.router, 'router'),
          route: this.labelOf(share.route, 'route'),
        };
        this.routeShare.set({ ...labels, kind: 'target' }, share.target);
        if (share.achieved !== undefined) {
          this.routeShare.set({ ...labels, kind: 'achieved' }, share.achieved);
        }
      }
    } catch {
      // a router whose report throws must not break the whole scrape
      this.routeShare.reset();
    }
  }

  /** Per router label (nested decision routers of one router add up). */
  private readTeacherStats(): TeacherReading[] {
    let readings: TeacherReading[];
    try {
      readings = this.teacherStats?.() ?? [];
    } catch {
      return [];
    }
    const byRouter = new Map<string, TeacherReading>();
    for (const reading of readings) {
      const router = this.labelOf(reading.router, 'router');
      const sum = byRouter.get(router) ?? {
        router,
        decisions: 0,
        taught: 0,
        recent: 0,
        recentTaught: 0,
      };
      sum.decisions += reading.decisions;
      sum.taught += reading.taught;
      sum.recent += reading.recent;
      sum.recentTaught += reading.recentTaught;
      byRouter.set(router, sum);
    }
    return [...byRouter.values()];
  }

  private writeTeacherDecisions(readings: readonly TeacherReading[]): void {
    this.teacherDecisions.reset();
    for (const { router, decisions, taught } of readings) {
      this.teacherDecisions.inc({ router, by: 'model' }, Math.max(0, decisions - taught));
      this.teacherDecisions.inc({ router, by: 'teacher' }, Math.max(0, taught));
    }
  }

  private writeTeacherShare(readings: readonly TeacherReading[]): void {
    this.teacherShare.reset();
    for (const { router, recent, recentTaught } of readings) {
      this.teacherShare.set({ router }, recent === 0 ? 0 : recentTaught / recent);
    }
  }
}
