import { InvalidConfigurationException } from '../errors/exceptions.js';

/** A router's answer: a named route, or "use the default route". */
export class ChatModelRoutingResult {
  private constructor(
    readonly routeName: string | undefined,
    readonly isDefaultRoute: boolean,
    /** Per-route probabilities behind the choice, when the router has them (for events). */
    readonly probabilities?: Readonly<Record<string, number>>,
    /** The id feedback on this decision names (DecisionModelChatModelRouter), when it has one. */
    readonly decisionId?: string,
  ) {}

  /** The same answer, carrying the id of the decision behind it. */
  withDecisionId(decisionId: string): ChatModelRoutingResult {
    return new ChatModelRoutingResult(
      this.routeName,
      this.isDefaultRoute,
      this.probabilities,
      decisionId,
    );
  }

  static route(
    name: string,
    options: { probabilities?: Record<string, number> } = {},
  ): ChatModelRoutingResult {
    if (typeof name !== 'string' || name.trim() === '') {
      throw new InvalidConfigurationException(
        'routeName must be a non-blank route name; use ChatModelRoutingResult.defaultRoute() for the default route',
      );
    }
    return new ChatModelRoutingResult(name, false, options.probabilities);
  }

  static defaultRoute(
    options: { probabilities?: Record<string, number> } = {},
  ): ChatModelRoutingResult {
    return new ChatModelRoutingResult(undefined, true, options.probabilities);
  }
}
