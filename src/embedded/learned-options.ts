import { learnedText } from '../core/decision/decision-feedback.js';
import type { ChoiceOption, LearnRequest } from '../core/decision/decision-model.js';
import { InvalidConfigurationException } from '../core/errors/exceptions.js';

export const DEFAULT_MAX_LEARNED_PER_OPTION = 50;

/** Most questions whose learned examples are kept (each router's routes make one question). */
const MAX_QUESTIONS = 256;

interface QuestionLearning {
  byOption: Map<string, string[]>;
  /** The question's options with their learned examples appended; rebuilt after a learn. */
  options: ChoiceOption[] | undefined;
}

/**
 * The examples an embedded decision model learned, per question and option: appended to the
 * option's own examples, so the question's classifier is fitted again on the next decision (the
 * classifier cache is keyed by the options' texts). Bounded per option: the oldest go first.
 */
export class LearnedOptions {
  private readonly questions = new Map<string, QuestionLearning>();

  constructor(readonly maxPerOption = DEFAULT_MAX_LEARNED_PER_OPTION) {}

  learn(request: LearnRequest): void {
    const options = request?.question?.options;
    if (!Array.isArray(options) || !options.some((option) => option.name === request.route)) {
      throw new InvalidConfigurationException(
        `learn: route '${String(request?.route)}' is not an option of the question`,
      );
    }
    const text = learnedText(request.input).trim();
    if (text === '') return;
    const key = fingerprint(options);
    let learning = this.questions.get(key);
    if (!learning) {
      if (this.questions.size >= MAX_QUESTIONS) {
        this.questions.delete(this.questions.keys().next().value as string);
      }
      learning = { byOption: new Map(), options: undefined };
      this.questions.set(key, learning);
    }
    const list = learning.byOption.get(request.route) ?? [];
    if (list.includes(text)) return;
    list.push(text);
    while (list.length > this.maxPerOption) list.shift();
    learning.byOption.set(request.route, list);
    learning.options = undefined;
  }

  /** The options with what was learned for them; the same array when nothing was. */
  withLearned(options: readonly ChoiceOption[]): readonly ChoiceOption[] {
    if (this.questions.size === 0) return options;
    const learning = this.questions.get(fingerprint(options));
    if (!learning) return options;
    learning.options ??= options.map((option) => {
      const learned = learning.byOption.get(option.name);
      if (!learned?.length) return option;
      return { ...option, examples: [...(option.examples ?? []), ...learned] };
    });
    return learning.options;
  }

  /** Learned examples per option of a question. */
  counts(options: readonly ChoiceOption[]): Record<string, number> {
    const learning = this.questions.get(fingerprint(options));
    return Object.fromEntries(
      options.map((option) => [option.name, learning?.byOption.get(option.name)?.length ?? 0]),
    );
  }
}

/** A question's identity: its options' names, descriptions and own examples. */
function fingerprint(options: readonly ChoiceOption[]): string {
  let key = '';
  for (const option of options) {
    key += `${option.name}\u0000${option.description}\u0000${(option.examples ?? []).join('\u0002')}\u0001`;
  }
  return key;
}
