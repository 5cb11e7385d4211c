import { RoutingException } from '../errors/exceptions.js';
import type { ChoiceQuestion, DecisionInput } from './decision-model.js';

/** What `DecisionModel.learn` receives: an input and the option it should have chosen. */
export interface LearnRequest {
  input: DecisionInput;
  question: ChoiceQuestion;
  /** The option's name (a route's name, or `route#k` for a route with several descriptions). */
  route: string;
  /**
   * Whose example it is: a caller's (its untrusted feedback), for that caller's decisions only;
   * undefined = shared by every decision. A model without scopes may ignore it.
   */
  scope?: string;
}

export type {
  DecisionFeedbackOptions,
  DecisionQuality,
  LearnsFromFeedback,
} from '../routing/feedback-router.js';
export { learnsFromFeedback } from '../routing/feedback-router.js';

/** Why feedback was refused; a gateway maps it to a 4xx status. */
export type FeedbackRefusal =
  'unknown-decision' | 'unknown-route' | 'conflict' | 'share-exceeded' | 'invalid';

/** Feedback that cannot be applied: the caller's mistake, never a failure of a model. */
export class DecisionFeedbackException extends RoutingException {
  constructor(
    readonly reason: FeedbackRefusal,
    message: string,
  ) {
    super(message);
  }
}

/** One text for a whole input: a conversation learns from all of its turns, not the last one. */
export function learnedText(input: DecisionInput): string {
  if (typeof input === 'string') return input;
  return input.messages.map((message) => message.text).join('\n');
}
