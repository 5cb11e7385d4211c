import type { LearnRequest } from './decision-feedback.js';

export type { LearnRequest };

/** What a decision model reads: the last user message, or a short conversation. */
export type DecisionInput = string | { messages: { role: 'user' | 'assistant'; text: string }[] };

export interface ChoiceOption {
  name: string;
  description: string;
  /** Present only for options of routes that have examples. */
  examples?: readonly string[];
}

export interface ChoiceQuestion {
  text: string;
  options: ChoiceOption[];
}

export interface DecisionRequest {
  input: DecisionInput;
  question: ChoiceQuestion;
  signal?: AbortSignal;
  /** The caller the decision is for: its own learned examples count beside the shared ones. */
  scope?: string;
}

export interface ChoiceAnswer {
  /** The name of the chosen option. */
  value: string;
  /** Option name → probability, when the model can tell. */
  probabilities?: Record<string, number>;
}

/** Chooses one option of a question for an input. */
export interface DecisionModel {
  decide(request: DecisionRequest): Promise<ChoiceAnswer>;
  /**
   * Optional: does now, at start-up, the work the first decision on `question` would do (the
   * embedded model fits its classifier: tens of ms). `DecisionModelChatModelRouter` calls it once
   * with its routes when the routing model is built; a model without it works the same, paying
   * that work on its first decision.
   */
  prepare?(question: ChoiceQuestion): void;
  /**
   * Optional: `input` should have chosen the option `route` of `question` (feedback on a decision,
   * a teacher's answer). The embedded model keeps it as an example of that option.
   */
  learn?(request: LearnRequest): void | Promise<void>;
}

export const FallbackStrategy = {
  /** Log a warning and use the default route (the default). */
  DEFAULT_ROUTE: 'DEFAULT_ROUTE',
  /** Rethrow the decision model's error. */
  FAIL: 'FAIL',
} as const;

export type FallbackStrategy = (typeof FallbackStrategy)[keyof typeof FallbackStrategy];

export const DEFAULT_QUESTION = 'Which model should handle this request?';

/** Anything with `warn`; Nest's Logger fits. */
export interface DecisionLogger {
  warn(message: string, ...context: unknown[]): void;
}
