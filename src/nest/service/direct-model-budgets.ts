import { callScopeOf, type BudgetScope } from '../../core/budget/budget.js';
import type { BudgetLedger } from '../../core/budget/budget-ledger.js';
import type { ChatCallOptions, ChatModel, ChatStreamEvent } from '../../core/chat/chat-model.js';
import type { ChatRequest } from '../../core/chat/request.js';
import type { ChatResponse } from '../../core/chat/response.js';
import { streamModel } from '../../core/chat/stream.js';
import type { Clock } from '../../core/clock.js';
import { profileOf } from '../../core/cost/model-profile.js';
import { costOfAnswer } from '../../core/cost/response-cost.js';
import { BudgetExceededException } from '../../core/errors/budget-exceeded.exception.js';
import { isInspectableRouting } from '../../core/observability/inspection.js';
import { profileMetadata } from '../../config/cost-config.js';

/**
 * A model addressed directly (`RoutingChatOptions.model`) under the module's budgets, as a
 * group's model is: the same scope (the call's attributes: key, router; the model's name), the
 * same ledger, the same pricing rule (costOfAnswer) and the same refusal (429
 * BudgetExceededException). Before the call a spent budget over that scope refuses it; after an
 * answer its cost is charged to every budget over the scope. A group (a ModelRouter built for one
 * request, such as a failover list) is returned as it is: it checks and charges each of its own
 * models, with the `budgets` it was given.
 */
export function underModuleBudgets(
  name: string,
  model: ChatModel,
  ledger: BudgetLedger,
  clock: Clock,
): ChatModel {
  if (ledger.size === 0 || isInspectableRouting(model)) return model;
  const pricing = profileOf({ name, model, metadata: new Map(profileMetadata(model)) }).pricing;
  const admit = (options: ChatCallOptions | undefined): BudgetScope => {
    const scope = callScopeOf(options?.attributes ?? {}, undefined, name);
    const over = ledger.exceeded(scope);
    if (over) {
      throw new BudgetExceededException({
        budget: over.budget.name,
        limitUsd: over.budget.limitUsd,
        spentUsd: over.spentUsd,
        resetsAt: over.resetsAt,
        now: clock(),
        models: [name],
      });
    }
    return scope;
  };
  const charge = (scope: BudgetScope, response: ChatResponse, options?: ChatCallOptions) => {
    const cost = costOfAnswer(response, pricing);
    if (cost === undefined || !(cost > 0)) return;
    // not awaited, as a group does: the answer does not wait for a shared store to count it
    void Promise.resolve()
      .then(() => ledger.charge(scope, cost, options?.observer))
      .catch(() => undefined);
  };
  return {
    ...(model.supportedCapabilities
      ? { supportedCapabilities: () => model.supportedCapabilities!() }
      : {}),
    ...(model.defaultRequestParameters
      ? { defaultRequestParameters: () => model.defaultRequestParameters!() }
      : {}),
    async chat(request: ChatRequest, options?: ChatCallOptions): Promise<ChatResponse> {
      const scope = admit(options);
      const response = await model.chat(request, options);
      charge(scope, response, options);
      return response;
    },
    async *stream(request: ChatRequest, options?: ChatCallOptions): AsyncIterable<ChatStreamEvent> {
      const scope = admit(options);
      for await (const event of streamModel(model, request, options)) {
        if (event.type === 'complete') charge(scope, event.response, options);
        yield event;
      }
    },
  };
}
