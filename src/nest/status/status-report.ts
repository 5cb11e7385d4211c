import type { BudgetStatus } from '../../core/budget/budget-ledger.js';
import type { ModelStatus } from '../../core/inspection/inspection.js';
import type { CircuitState } from '../../core/observability/routing-event.js';
import { InMemoryRouteStateStore } from '../../core/state/in-memory-route-state-store.js';
import type { RouteStateStore } from '../../core/state/route-state-store.js';
import type { RouterInspection } from '../module/model-router-registry.js';
import {
  boundedError,
  type ModelKey,
  type RecentFailover,
  type StatusWindow,
  type WindowFigures,
} from './status-window.js';

export interface ModelStatusEntry extends Omit<WindowFigures, 'lastError'> {
  name: string;
  /** The model's circuit: `open` while it cools down, `half-open` while a probe decides. */
  state: CircuitState;
  /** ISO time the cooldown ends (open). */
  cooldownUntil?: string;
  /** ISO time the next call may probe the model (open: when the cooldown ends). */
  nextProbeAt?: string;
  /** The last error the circuit counted (class and message, scrubbed, at most 300 characters). */
  lastError?: { type: string; message: string; at?: string };
  /** Consecutive failures the circuit counts now. */
  failures: number;
  /** Passed over for now though its circuit admits it (`rate-limited`, `over-budget`), until. */
  skipped?: { reason: string; until?: string; budget?: string };
  /** This minute's use of the model's `rpm` / `tpm` limits, every replica's (absent: no limits). */
  limits?: ModelStatus['limits'];
}

export interface RouteStatusEntry {
  /** The route's name; a router that is one model group shows one route named after itself. */
  name: string;
  models: ModelStatusEntry[];
}

export interface RouterStatusEntry {
  name: string;
  /** `up`: nothing open; `degraded`: some models open; `down`: none left to serve. */
  status: 'up' | 'degraded' | 'down';
  routes: RouteStatusEntry[];
  /** How the decision split this replica's recent calls between routes (absent: no decisions). */
  decisions?: { route: string; calls: number; share: number }[];
}

export type BudgetStatusEntry = BudgetStatus;

/** Where each part of the report comes from: the shared store, or this replica alone. */
export interface StatusSources {
  /** Circuit states and budgets: `shared` when the store shares them with other replicas now. */
  circuits: 'shared' | 'replica';
  budgets: 'shared' | 'replica';
  /** Requests, errors, latencies, rpm/tpm, failovers and decisions: always this replica's. */
  traffic: 'replica';
}

/** `GET /router/status`: DESIGN 2.10's shape, plus whatever sections the app added. */
export interface RouterStatusReport {
  /** ISO time the report was made. */
  generatedAt: string;
  /** The window the traffic figures cover (ms) and the replica that saw them. */
  window: { ms: number; replica: string };
  stateStore: { type: string; shared: boolean };
  sources: StatusSources;
  routers: RouterStatusEntry[];
  budgets: BudgetStatusEntry[];
  failovers: RecentFailover[];
  /** Sections added with `ModelRouterStatus.addSection` (e.g. `cache`), by their name. */
  [section: string]: unknown;
}

/** The built-in keys of the report: a section may not take one of these names. */
export const BUILT_IN_SECTIONS: ReadonlySet<string> = new Set([
  'generatedAt',
  'window',
  'stateStore',
  'sources',
  'routers',
  'budgets',
  'failovers',
]);

const STATES: Record<ModelStatus['state'], CircuitState> = {
  available: 'closed',
  cooldown: 'open',
  'half-open': 'half-open',
};

export interface StatusInputs {
  inspections: RouterInspection[];
  budgets: BudgetStatus[];
  store: RouteStateStore;
  window: StatusWindow;
  replica: string;
  /** Applied to every error message after the built-in scrubbing (e.g. the gateway's secrets). */
  redact?: (text: string) => string;
}

export function buildStatusReport(inputs: StatusInputs): RouterStatusReport {
  const { window } = inputs;
  const shared = storeIsShared(inputs.store);
  const source = shared ? 'shared' : 'replica';
  const redact = inputs.redact ?? ((text: string) => text);
  return {
    generatedAt: new Date(window.clock()).toISOString(),
    window: { ms: window.windowMs, replica: inputs.replica },
    stateStore: { type: storeType(inputs.store), shared },
    sources: { circuits: source, budgets: source, traffic: 'replica' },
    routers: inputs.inspections.map((inspection) => routerEntry(inspection, window, redact)),
    budgets: inputs.budgets.map((budget) => ({ ...budget, scope: { ...budget.scope } })),
    failovers: window
      .recentFailovers()
      .map((failover) => ({ ...failover, reason: redact(failover.reason) })),
  };
}

function routerEntry(
  inspection: RouterInspection,
  window: StatusWindow,
  redact: (text: string) => string,
): RouterStatusEntry {
  const routes = new Map<string, ModelStatusEntry[]>();
  for (const status of inspection.models) {
    const key: ModelKey = {
      router: inspection.router,
      ...(status.route !== undefined ? { route: status.route } : {}),
      model: status.model,
    };
    const name = status.route ?? inspection.router;
    routes.set(name, [
      ...(routes.get(name) ?? []),
      modelEntry(status, window.figures(key), redact),
    ]);
  }
  const open = inspection.models.filter((status) => status.state === 'cooldown').length;
  const decisions = window.decisionSplit(inspection.router);
  return {
    name: inspection.router,
    status: open === 0 ? 'up' : open === inspection.models.length ? 'down' : 'degraded',
    routes: [...routes].map(([name, models]) => ({ name, models })),
    ...(decisions.length > 0 ? { decisions } : {}),
  };
}

function modelEntry(
  status: ModelStatus,
  figures: WindowFigures,
  redact: (text: string) => string,
): ModelStatusEntry {
  const { lastError: seen, ...traffic } = figures;
  const state = STATES[status.state] ?? 'closed';
  const entry: ModelStatusEntry = {
    name: status.model,
    state,
    failures: status.failures,
    ...traffic,
  };
  if (status.cooldownUntil !== undefined) {
    entry.cooldownUntil = new Date(status.cooldownUntil).toISOString();
    if (state === 'open') entry.nextProbeAt = entry.cooldownUntil;
  }
  // the circuit's own last error (shared with Redis), else the last this replica saw
  const counted = status.lastError ? boundedError(status.lastError) : undefined;
  const lastError = counted
    ? { ...counted, ...(seen && seen.message === counted.message ? { at: seen.at } : {}) }
    : seen;
  if (lastError) entry.lastError = { ...lastError, message: redact(lastError.message) };
  if (status.limits) entry.limits = status.limits;
  if (status.skipped) {
    const { reason, until, budget } = status.skipped;
    entry.skipped = {
      reason,
      ...(until !== undefined ? { until: new Date(until).toISOString() } : {}),
      ...(budget !== undefined ? { budget } : {}),
    };
  }
  return entry;
}

function storeIsShared(store: RouteStateStore): boolean {
  if (store instanceof InMemoryRouteStateStore) return false;
  return typeof store.isShared === 'function' ? store.isShared() : true;
}

function storeType(store: RouteStateStore): string {
  if (store instanceof InMemoryRouteStateStore) return 'in-memory';
  const described = (store as { describe?: () => unknown }).describe?.call(store);
  const type = (described as { type?: unknown } | undefined)?.type;
  return typeof type === 'string' ? type : store.constructor.name;
}
