import { hostname } from 'node:os';
import { InvalidConfigurationException } from '../../core/errors/exceptions.js';
import type { ModelRouterRegistry } from '../module/model-router-registry.js';
import { BUILT_IN_SECTIONS, buildStatusReport, type RouterStatusReport } from './status-report.js';
import type { StatusWindow } from './status-window.js';

/**
 * A part of the status that another feature adds (a cache's hit rate, a spend plan): its value
 * appears in the JSON under `name` and as a table on the page. `collect` runs on every request
 * of the status, so it reads what it already has and returns a small JSON-serialisable value.
 */
export interface StatusSection {
  name: string;
  collect(): unknown;
}

/**
 * What `GET /router/status` answers and the page shows: the routers' circuits and budgets as
 * the (shared) state store holds them, and this replica's recent traffic from its window.
 */
export class ModelRouterStatus {
  private readonly sections = new Map<string, StatusSection>();
  private found: ModelRouterRegistry | undefined;

  /** `registry`: the module's registry, or how to find it once the application is up. */
  constructor(
    private readonly registry: ModelRouterRegistry | (() => ModelRouterRegistry),
    readonly window: StatusWindow,
    private readonly options: {
      replica?: string;
      redact?: (text: string) => string;
      sections?: readonly StatusSection[];
    } = {},
  ) {
    for (const section of options.sections ?? []) this.addSection(section);
  }

  /** Finds the routers at start-up, so a missing ModelRouterModule fails there. */
  onModuleInit(): void {
    this.routers();
  }

  private routers(): ModelRouterRegistry {
    const registry = this.registry;
    return (this.found ??= typeof registry === 'function' ? registry() : registry);
  }

  /** Adds a section to every report from now on (a name already taken is refused). */
  addSection(section: StatusSection): void {
    if (BUILT_IN_SECTIONS.has(section.name) || this.sections.has(section.name)) {
      throw new InvalidConfigurationException(
        `status section '${section.name}' is taken: choose a name other than ${[...BUILT_IN_SECTIONS, ...this.sections.keys()].join(', ')}`,
      );
    }
    this.sections.set(section.name, section);
  }

  report(): RouterStatusReport {
    const registry = this.routers();
    const report = buildStatusReport({
      inspections: registry.inspect(),
      budgets: registry.budgets.report(),
      store: registry.stateStore,
      window: this.window,
      replica: this.options.replica ?? `${hostname()}:${process.pid}`,
      ...(this.options.redact ? { redact: this.options.redact } : {}),
    });
    for (const [name, section] of this.sections) {
      try {
        report[name] = section.collect();
      } catch (error) {
        // one section failing leaves the rest of the status readable
        report[name] = { error: error instanceof Error ? error.name : 'error' };
      }
    }
    return report;
  }
}
