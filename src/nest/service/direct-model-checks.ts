import type { BudgetLedger } from '../../core/budget/budget-ledger.js';
import type { ChatCallOptions, ChatModel, ChatStreamEvent } from '../../core/chat/chat-model.js';
import type { ChatRequest } from '../../core/chat/request.js';
import type { ChatResponse } from '../../core/chat/response.js';
import { streamModel } from '../../core/chat/stream.js';
import type { Clock } from '../../core/clock.js';
import { profileOf } from '../../core/cost/model-profile.js';
import { OutputCounter, partialUsage } from '../../core/cost/partial-usage.js';
import { NoMatchingModelFoundException } from '../../core/errors/exceptions.js';
import type { ChatModelWrapper } from '../../core/chat/chat-model-wrapper.js';
import { ModelChecks } from '../../core/limits/model-checks.js';
import { isInspectableRouting } from '../../core/inspection/inspection.js';
import type { RouteStateStore } from '../../core/state/route-state-store.js';
import type { StrategyCallContext } from '../../core/strategies/model-routing-strategy.js';
import { profileMetadata } from '../../config/cost-config.js';

export interface DirectModelState {
  budgets: BudgetLedger;
  store: RouteStateStore;
  clock: Clock;
}

/** A call's context as the checks' hooks read it; `usage` is set when a call ends unanswered. */
type CallContext = { -readonly [K in keyof StrategyCallContext]: StrategyCallContext[K] };

/** The only model there is: what ModelChecks wraps for a model called on its own. */
const ONLY_MODEL = { route: (models: readonly ChatModelWrapper[]) => models[0] };

/**
 * Models addressed directly (`RoutingChatOptions.model`) served through the same checks as a
 * group's models: ModelChecks, on the module's budgets, store and clock. So a model's context
 * window, its rpm/tpm and its provider's quota hold, a spent budget over the call's scope (key,
 * router, model) refuses it with BudgetExceededException, and its answer is priced and charged
 * by the same rule (costOfAnswer), for chat and streams alike. A group (a ModelRouter built for
 * one request, such as a failover list) is served as it is: it checks each of its own models.
 */
export class DirectModelChecks {
  /**
   * Per model: its limits' state (quota seen, the last scope) outlives one call; `null` when no
   * check applies to it (no profile, no budgets), which holds for the module's lifetime.
   */
  private readonly checks = new WeakMap<
    ChatModel,
    { model: ChatModelWrapper; checks: ModelChecks } | null
  >();

  constructor(private readonly state: DirectModelState) {}

  /** `model` under the checks, or as it is when none applies (no limits, no budgets). */
  wrap(name: string, model: ChatModel): ChatModel {
    if (isInspectableRouting(model)) return model;
    const entry = this.entryOf(name, model);
    if (entry === undefined) return model;
    return {
      ...(model.supportedCapabilities
        ? { supportedCapabilities: () => model.supportedCapabilities!() }
        : {}),
      ...(model.defaultRequestParameters
        ? { defaultRequestParameters: () => model.defaultRequestParameters!() }
        : {}),
      chat: (request, options) => this.chat(entry, request, options),
      stream: (request, options) => this.stream(entry, request, options),
    };
  }

  private entryOf(name: string, model: ChatModel) {
    const known = this.checks.get(model);
    if (known === null || known?.model.name === name) return known ?? undefined;
    const wrapper: ChatModelWrapper = { name, model, metadata: new Map(profileMetadata(model)) };
    const profile = profileOf(wrapper);
    // a price alone needs no check: it is charged only to budgets
    const limited = profile.contextWindow !== undefined || profile.limits !== undefined;
    if (!limited && this.state.budgets.size === 0) {
      this.checks.set(model, null);
      return undefined;
    }
    const entry = {
      model: wrapper,
      checks: new ModelChecks(ONLY_MODEL, [wrapper], { ...this.state }),
    };
    this.checks.set(model, entry);
    return entry;
  }

  private async chat(
    { model, checks }: { model: ChatModelWrapper; checks: ModelChecks },
    request: ChatRequest,
    options: ChatCallOptions | undefined,
  ): Promise<ChatResponse> {
    const context = await this.admit(model, checks, request, options, false);
    let response: ChatResponse;
    try {
      response = await model.model.chat(request, options);
    } catch (error) {
      // the caller left while the model was answering: the prompt was read, and is paid for
      if (options?.signal?.aborted) context.usage = partialUsage(request, new OutputCounter());
      await checks.onFailure(model, error, request, context);
      throw error;
    }
    await checks.onSuccess(model, response, request, context);
    return response;
  }

  private async *stream(
    { model, checks }: { model: ChatModelWrapper; checks: ModelChecks },
    request: ChatRequest,
    options: ChatCallOptions | undefined,
  ): AsyncIterable<ChatStreamEvent> {
    const context = await this.admit(model, checks, request, options, true);
    let settled = false;
    // what reached the caller is paid for if the stream ends before its answer (as in a group)
    const produced = new OutputCounter();
    try {
      for await (const event of streamModel(model.model, request, options)) {
        if (event.type === 'complete') {
          settled = true;
          await checks.onSuccess(model, event.response, request, context);
        } else if (event.type === 'text-delta') produced.add(event.text);
        else if (event.type === 'tool-call-delta') produced.add(event.argumentsDelta);
        yield event;
      }
    } catch (error) {
      if (!settled) {
        settled = true;
        if (produced.deltas > 0 || options?.signal?.aborted) {
          context.usage = partialUsage(request, produced);
        }
        await checks.onFailure(model, error, request, context);
      }
      throw error;
    } finally {
      // the consumer stopped reading before the answer was complete
      if (!settled) {
        context.usage = partialUsage(request, produced);
        await checks.onCancel(model, undefined, request, context);
      }
    }
  }

  /** ModelChecks' verdict: the model, or its typed refusal (context, budget, rate limits). */
  private async admit(
    model: ChatModelWrapper,
    checks: ModelChecks,
    request: ChatRequest,
    options: ChatCallOptions | undefined,
    stream: boolean,
  ): Promise<CallContext> {
    const context: CallContext = {
      attributes: options?.attributes ?? {},
      attempt: 1,
      ...(options?.signal ? { signal: options.signal } : {}),
      ...(options?.observer ? { observer: options.observer } : {}),
      ...(stream ? { stream } : {}),
    };
    if (await checks.route([model], request, context)) return context;
    // the model is at its rpm/tpm or its provider's quota: a retry-after hint, as a group gives
    const retryAfterMs = checks.retryAfterMs([model]);
    throw new NoMatchingModelFoundException(
      `Model '${model.name}' is at its rate limit` +
        (retryAfterMs !== undefined ? `; it may be tried again in ${retryAfterMs} ms.` : '.'),
      [],
      retryAfterMs !== undefined ? { retryAfterMs: Math.ceil(retryAfterMs) } : {},
    );
  }
}
