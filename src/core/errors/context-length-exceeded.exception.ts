import { ModelRouterException } from './exceptions.js';

/** No model of the group has a context window that holds the prompt plus the requested output. */
export class ContextLengthExceededException extends ModelRouterException {
  /** To a group above this one: a larger window elsewhere may fit; never this group's failure. */
  readonly kind = 'context-length' as const;
  readonly promptTokens: number;
  readonly outputTokens: number;
  readonly largestContextWindow: number;

  constructor(details: {
    promptTokens: number;
    outputTokens: number;
    largestContextWindow: number;
    models: string[];
  }) {
    super(
      `The request needs about ${details.promptTokens + details.outputTokens} tokens ` +
        `(prompt ≈ ${details.promptTokens}, max output ${details.outputTokens}), more than the ` +
        `largest context window of the models that could serve it (${details.largestContextWindow}: ` +
        `${details.models.join(', ')}). Shorten the conversation or lower max_tokens.`,
    );
    this.promptTokens = details.promptTokens;
    this.outputTokens = details.outputTokens;
    this.largestContextWindow = details.largestContextWindow;
  }
}
