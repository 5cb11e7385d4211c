import { summarizeError } from '../observability/routing-event.js';

const MAX_MESSAGE = 200;

/** What a group's call that ran out of models knows when it ends. */
export interface ExhaustedCall {
  /** The group's models, the default route excluded. */
  readonly names: readonly string[];
  readonly hasDefaultRoute: boolean;
  /** Every attempt's error, in order, and the model of each. */
  readonly errors: readonly unknown[];
  readonly failedModels: readonly string[];
  /** The strategy's own failure while choosing the next model, after an attempt failed. */
  readonly strategyProblem: unknown;
  readonly retryAfterMs: number | undefined;
}

/** The message of NoMatchingModelFoundException: why nothing was left, and each model's error. */
export function exhaustedMessage(call: ExhaustedCall): string {
  const { errors, retryAfterMs, strategyProblem } = call;
  const names = call.names.join(', ');
  const retry =
    retryAfterMs === undefined ? '' : ` The first model leaves its cooldown in ${retryAfterMs} ms.`;
  if (errors.length === 0) {
    const why =
      retryAfterMs !== undefined
        ? `every model of the group (${names}) is cooling down`
        : `the routing strategy chose none of the models (${names || 'none configured'}) and ` +
          (call.hasDefaultRoute
            ? 'the defaultRoute was already tried'
            : 'no defaultRoute is configured');
    return `No matching route: ${why}.${retry}`;
  }
  const failures = errors
    .map((error, index) => `${call.failedModels[index]}: ${brief(error)}`)
    .join('; ');
  const problem =
    strategyProblem === undefined
      ? ''
      : ` The routing strategy failed while choosing the next model (${brief(strategyProblem)}).`;
  const plural = errors.length === 1 ? 'attempt' : 'attempts';
  return `No matching route: ${errors.length} ${plural} failed and no model is left to try (${failures}).${problem}${retry}`;
}

function brief(error: unknown): string {
  const { name, message } = summarizeError(error);
  const text = `${name}: ${message}`;
  return text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE - 1)}…` : text;
}
