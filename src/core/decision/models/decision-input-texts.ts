import { InvalidConfigurationException } from '../../errors/exceptions.js';
import type { ChoiceOption, DecisionInput, DecisionRequest } from '../decision-model.js';
import { switchesTopic } from './topic-switch.js';

/** How much each message of a `{ messages }` input counts; the last user message matters most. */
export interface MessageWeights {
  /** The last user message. Default 1. */
  lastUser: number;
  /** Earlier user messages. Default 0.35. */
  earlierUser: number;
  /** Assistant messages. Default 0.15. */
  assistant: number;
}

export const DEFAULT_MESSAGE_WEIGHTS: Readonly<MessageWeights> = {
  lastUser: 1,
  earlierUser: 0.35,
  assistant: 0.15,
};

export interface WeightedText {
  text: string;
  weight: number;
}

/**
 * The texts of an input with their weights; blank texts are left out, and so are the earlier
 * messages when the last user message announces a new topic ("different question: …",
 * topic-switch.ts): that request is one of its own.
 */
export function weightedInputTexts(
  input: DecisionInput,
  weights: MessageWeights = DEFAULT_MESSAGE_WEIGHTS,
): WeightedText[] {
  if (typeof input === 'string') return input.trim() ? [{ text: input, weight: 1 }] : [];
  if (typeof input !== 'object' || input === null || !Array.isArray(input.messages)) {
    throw new InvalidConfigurationException(
      'decision input must be a string or { messages: [...] } (input)',
    );
  }
  const messages = input.messages;
  let lastUser = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]?.role === 'user') {
      lastUser = i;
      break;
    }
  }
  const last = messages[lastUser]?.text;
  if (typeof last === 'string' && last.trim() && switchesTopic(last)) {
    return weights.lastUser > 0 ? [{ text: last, weight: weights.lastUser }] : [];
  }
  const texts: WeightedText[] = [];
  messages.forEach((message, i) => {
    if (typeof message?.text !== 'string' || !message.text.trim()) return;
    const weight =
      i === lastUser
        ? weights.lastUser
        : message.role === 'user'
          ? weights.earlierUser
          : weights.assistant;
    if (weight > 0) texts.push({ text: message.text, weight });
  });
  return texts;
}

/** Checks what every decision model relies on: at least one option, unique non-blank names. */
export function validatedOptions(request: DecisionRequest): readonly ChoiceOption[] {
  const options = request?.question?.options;
  if (!Array.isArray(options) || options.length === 0) {
    throw new InvalidConfigurationException(
      'a decision needs at least one option (question.options)',
    );
  }
  const seen = new Set<string>();
  for (const option of options) {
    if (typeof option?.name !== 'string' || !option.name.trim()) {
      throw new InvalidConfigurationException(
        'every option needs a non-blank name (question.options[].name)',
      );
    }
    if (seen.has(option.name)) {
      throw new InvalidConfigurationException(
        `more than one option named '${option.name}' (question.options)`,
      );
    }
    if (typeof option.description !== 'string') {
      throw new InvalidConfigurationException(
        `option '${option.name}' needs a description (question.options[].description)`,
      );
    }
    seen.add(option.name);
  }
  return options;
}
