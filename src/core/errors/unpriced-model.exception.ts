import { ModelRouterException } from './exceptions.js';

/**
 * A budget applies to the call and the models that could serve it have no price, so what they
 * would spend cannot be counted. Refused rather than served for free: `provider/model-id` models
 * take the configuration's `unpricedUnderBudget` (default `refuse`). The gateway answers 403
 * `model_unpriced`.
 */
export class UnpricedModelException extends ModelRouterException {
  /**
   * The caller's answer as it is, never a model's failure: the models are fine (another key, with
   * no budget, may use them), so nothing cools down. Within a group, ModelChecks already passed
   * over the unpriced models for the priced ones.
   */
  readonly kind = 'invalid-request' as const;
  readonly models: readonly string[];
  /** The budget that applies to the call. */
  readonly budget: string;

  constructor(details: { models: string[]; budget: string }) {
    const names = details.models.map((model) => `'${model}'`).join(', ');
    super(
      `${details.models.length === 1 ? 'Model' : 'Models'} ${names} ${details.models.length === 1 ? 'has' : 'have'} ` +
        `no price and budget '${details.budget}' applies to this call, so its spend could not ` +
        'be counted. Give the model (or its provider) a pricing { input, output } in USD per ' +
        'million tokens, or set unpricedUnderBudget: allow to serve unpriced models under budgets.',
    );
    this.models = Object.freeze([...details.models]);
    this.budget = details.budget;
  }
}
