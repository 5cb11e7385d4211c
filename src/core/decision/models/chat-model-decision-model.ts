import { raceAbort, throwIfAborted } from '../../chat/abort.js';
import { logprobsAttribute } from '../../chat/logprobs.js';
import type { ChatModel } from '../../chat/chat-model.js';
import type { ChatMessage } from '../../chat/messages.js';
import type { ChatRequest, ChatRequestParameters } from '../../chat/request.js';
import type { ChatResponse } from '../../chat/response.js';
import { InvalidConfigurationException } from '../../errors/exceptions.js';
import type {
  ChoiceAnswer,
  ChoiceOption,
  DecisionModel,
  DecisionRequest,
} from '../decision-model.js';
import { validatedOptions } from './decision-input-texts.js';
import { firstTokenAlternatives, labelProbabilities, parseLabel } from './judge-answer.js';
import { judgeMessages, optionLabels } from './judge-prompt.js';
import { checkNonNegative, checkPositiveInteger } from './option-validation.js';
import { routingTracer } from '../../observability/tracing.js';

export interface ChatModelDecisionModelOptions {
  /** Examples shown per option in the prompt. Default 3. */
  maxExamplesPerOption?: number;
  /** Output budget of the judge: a label needs one token. Default 8. */
  maxOutputTokens?: number;
  /** Default 0: the same conversation gets the same route. */
  temperature?: number;
  /** Further request parameters for the judge (e.g. `modelName`); these win over the above. */
  parameters?: ChatRequestParameters;
}

export const CHAT_MODEL_DECISION_DEFAULTS = {
  maxExamplesPerOption: 3,
  maxOutputTokens: 8,
  temperature: 0,
} as const;

/**
 * An LLM judge over any ChatModel (a small, cheap one is enough). The options are shown as short
 * labels (A, B, C…) with their descriptions and a few examples; the conversation is delimited
 * and declared to be data; the reply must be exactly one offered label, so the user's text can
 * never smuggle in a route of its own: anything else is an InvalidDecisionResponseException.
 *
 * When the response carries the first token's top logprobs in `aiMessage.attributes.logprobs`
 * (the OpenAI-compatible provider surfaces them when logprobs are requested), the answer reports
 * probabilities over the labels, normalised over the offered ones; otherwise only the value.
 */
export class ChatModelDecisionModel implements DecisionModel {
  protected readonly model: ChatModel;
  protected readonly maxExamplesPerOption: number;
  protected readonly parameters: ChatRequestParameters;

  constructor(model: ChatModel, options: ChatModelDecisionModelOptions = {}) {
    if (typeof model?.chat !== 'function') {
      throw new InvalidConfigurationException(
        'ChatModelDecisionModel needs a chat model with a chat() function (model)',
      );
    }
    checkPositiveInteger(options.maxOutputTokens, 'maxOutputTokens');
    checkNonNegative(options.maxExamplesPerOption, 'maxExamplesPerOption');
    checkNonNegative(options.temperature, 'temperature');
    this.model = model;
    this.maxExamplesPerOption =
      options.maxExamplesPerOption ?? CHAT_MODEL_DECISION_DEFAULTS.maxExamplesPerOption;
    this.parameters = {
      temperature: options.temperature ?? CHAT_MODEL_DECISION_DEFAULTS.temperature,
      maxOutputTokens: options.maxOutputTokens ?? CHAT_MODEL_DECISION_DEFAULTS.maxOutputTokens,
      ...options.parameters,
    };
  }

  async decide(request: DecisionRequest): Promise<ChoiceAnswer> {
    throwIfAborted(request?.signal);
    const options = validatedOptions(request);
    const labels = optionLabels(options.length);
    const chatRequest: ChatRequest = {
      messages: this.messages(request, options, labels),
      parameters: { ...this.parameters },
    };
    const ask = () =>
      raceAbort(
        this.model.chat(chatRequest, request.signal ? { signal: request.signal } : {}),
        request.signal,
      );
    // the judge's own model call is a span of its own under the routed call
    const tracer = routingTracer();
    const response = await (tracer ? tracer.decision('judge', ask) : ask());
    return this.answer(response, options, labels);
  }

  /** The judge's conversation: instructions with the labelled options, then the delimited input. */
  protected messages(
    request: DecisionRequest,
    options: readonly ChoiceOption[],
    labels: readonly string[],
  ): ChatMessage[] {
    return judgeMessages(request.question.text, request.input, options, labels, {
      maxExamplesPerOption: this.maxExamplesPerOption,
    });
  }

  /** Maps the reply's label back to its option, with probabilities when logprobs came back. */
  protected answer(
    response: ChatResponse,
    options: readonly ChoiceOption[],
    labels: readonly string[],
  ): ChoiceAnswer {
    const label = parseLabel(response?.aiMessage?.text, labels);
    const value = options[labels.indexOf(label)]!.name;
    const alternatives = firstTokenAlternatives(
      logprobsAttribute.of(response.aiMessage.attributes),
    );
    const byLabel = alternatives && labelProbabilities(alternatives, labels);
    if (!byLabel) return { value };
    const probabilities: Record<string, number> = {};
    labels.forEach((l, i) => (probabilities[options[i]!.name] = byLabel[l]!));
    return { value, probabilities };
  }
}
