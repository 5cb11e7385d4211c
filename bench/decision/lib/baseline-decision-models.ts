/**
 * The baselines the decision model is measured against, as DecisionModels so that they run
 * through the same router path.
 */
import type {
  ChoiceAnswer,
  ChoiceOption,
  DecisionInput,
  DecisionModel,
  DecisionRequest,
} from '../../../src/core/decision/decision-model.js';
import { cosine } from '../../../src/core/decision/models/similarity-scoring.js';
import { STOP_WORDS } from '../../../src/embedded/stop-words.js';
import { tokenize } from '../../../src/embedded/tokenize.js';
import { loadWordVectors, type WordVectors } from '../../../src/embedded/word-vectors.js';

function lastUserText(input: DecisionInput): string {
  if (typeof input === 'string') return input;
  return input.messages.findLast((m) => m.role === 'user')?.text ?? '';
}

/** Every message of the input, as one text. */
function allText(input: DecisionInput): string {
  if (typeof input === 'string') return input;
  return input.messages.map((m) => m.text).join('\n');
}

function oneHot(options: readonly ChoiceOption[], best: number): ChoiceAnswer {
  return { value: options[best]!.name };
}

/** The last user message's most shared non-stop words with the option's description and examples; ties → the first. */
export class KeywordOverlapModel implements DecisionModel {
  private readonly words = new Map<string, Set<string>>();

  async decide({ input, question }: DecisionRequest): Promise<ChoiceAnswer> {
    const words = new Set(tokenize(lastUserText(input)).filter((w) => !STOP_WORDS.has(w)));
    let best = 0;
    let bestScore = -1;
    question.options.forEach((option, i) => {
      const key = `${option.description}\u0000${(option.examples ?? []).join('\u0001')}`;
      let set = this.words.get(key);
      if (!set) {
        set = new Set([option.description, ...(option.examples ?? [])].flatMap((t) => tokenize(t)));
        this.words.set(key, set);
      }
      let score = 0;
      for (const word of words) if (set.has(word)) score++;
      if (score > bestScore) {
        bestScore = score;
        best = i;
      }
    });
    return oneHot(question.options, best);
  }
}

/**
 * The plain mean of the GloVe vectors of the input's known words, every message of it (no
 * weighting, no centring); an
 * option scores half the cosine to the centroid of its texts (description and examples) and
 * half the cosine to its nearest text.
 */
export class MeanVectorModel implements DecisionModel {
  private readonly vectors: WordVectors = loadWordVectors();
  private readonly cache = new Map<string, Float64Array>();

  private embed(text: string): Float64Array {
    let out = this.cache.get(text);
    if (out) return out;
    out = new Float64Array(this.vectors.dimensions);
    let n = 0;
    for (const token of tokenize(text)) {
      const row = this.vectors.rowOf(token);
      if (row >= 0) {
        this.vectors.addRow(out, row, 1);
        n++;
      }
    }
    if (n > 0) for (let d = 0; d < out.length; d++) out[d]! /= n;
    this.cache.set(text, out);
    return out;
  }

  async decide({ input, question }: DecisionRequest): Promise<ChoiceAnswer> {
    const x = this.embed(allText(input));
    let best = 0;
    let bestScore = -Infinity;
    question.options.forEach((option, i) => {
      const texts = [option.description, ...(option.examples ?? [])].map((t) => this.embed(t));
      const centroid = new Float64Array(x.length);
      for (const t of texts)
        for (let d = 0; d < x.length; d++) centroid[d]! += t[d]! / texts.length;
      const nearest = Math.max(...texts.map((t) => cosine(x, t)));
      const score = 0.5 * cosine(x, centroid) + 0.5 * nearest;
      if (score > bestScore) {
        bestScore = score;
        best = i;
      }
    });
    return oneHot(question.options, best);
  }
}
