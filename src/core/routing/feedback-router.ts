/** How good the answer of a decision's route was: `bad` sends similar inputs up a route. */
export type DecisionQuality = 'good' | 'bad';

export interface DecisionFeedbackOptions {
  /**
   * `bad`: the answer was not good enough. Without `route`, the input is learned as an example of
   * the next more capable route (the router's `capabilityOrder`) than the one it went to.
   */
  quality?: DecisionQuality;
  /**
   * Who gives the feedback (a gateway's API key name). When set, only the caller scope that made
   * the call may give it, unless `trusted`; and its examples stay under a share of each route's.
   */
  caller?: string;
  /** An operator (an admin key, your own code): any decision, no share bound. */
  trusted?: boolean;
}

/** A router that takes feedback on its decisions (DecisionModelChatModelRouter). */
export interface LearnsFromFeedback {
  /** Whether a decision with this id is still on record. */
  hasDecision(decisionId: string): boolean;
  feedback(decisionId: string, route?: string, options?: DecisionFeedbackOptions): Promise<void>;
}

export function learnsFromFeedback(value: unknown): value is LearnsFromFeedback {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as LearnsFromFeedback).hasDecision === 'function' &&
    typeof (value as LearnsFromFeedback).feedback === 'function'
  );
}
