import { InvalidConfigurationException } from '../core/errors/exceptions.js';

/** A configuration that cannot start: every problem, each prefixed with its path. */
export class InvalidModelRouterConfigException extends InvalidConfigurationException {
  /** e.g. `routers.default.routes[1].model: unknown model 'gpt-5'; known models: 'fast', 'big'`. */
  readonly problems: readonly string[];

  constructor(problems: string[], source?: string) {
    super(
      `Invalid model router configuration${source ? ` (${source})` : ''}:\n  - ${problems.join('\n  - ')}`,
    );
    this.problems = Object.freeze([...problems]);
  }
}

/** Renders a path from its segments: `routers`, `default`, 1 → `routers.default[1]`. */
export function joinPath(base: string, segment: string | number): string {
  if (typeof segment === 'number') return `${base}[${segment}]`;
  return base === '' ? segment : `${base}.${segment}`;
}
