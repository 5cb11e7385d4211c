import type { MessageWeights } from '../core/decision/models/decision-input-texts.js';
import type { FeatureWeights } from './decision-features.js';
import type { LearnedOptionsConfig } from './learned-options.js';
import type { PerQuestionKind } from './option-classifier.js';
import type { WordWeighting } from './word-vector-embedder.js';
import type { WordVectors } from './word-vectors.js';

export interface EmbeddedVectorDecisionModelOptions extends LearnedOptionsConfig {
  /**
   * Softmax temperature over the option logits, lower is more decisive; one number for both kinds
   * of question, or each. Defaults 4 with examples and 8 with descriptions only: the lowest at
   * which decisions with a probability ≥ 0.6 were right ≥ 95 % of the time on every dev set (a
   * margin over the 90 % promised), or the grid's highest where none is.
   */
  temperature?: number | Partial<PerQuestionKind>;
  /**
   * Share of an option's description (and the phrases of its description) against its examples,
   * both in the classifier's training and in the similarity score (0…1). Default 0.3.
   */
  descriptionWeight?: number;
  /** How many of an option's closest examples the similarity score averages. Default 1. */
  topExamples?: number;
  /**
   * Weight of the cosine similarity score (description and closest examples) beside the
   * classifier's logit; one number for both cases, or each. Default 4 with examples, 32 without.
   */
  similarityWeight?: number | Partial<PerQuestionKind>;
  /**
   * Training weight of the shipped intent corpus (src/embedded/assets/intent-corpus.json): an option whose
   * name, description and examples are close to one of its archetypes (billing, coding,
   * shipping…) borrows that archetype's messages, weighing this much beside the option's own texts
   * (which weigh 1); they also count as its examples in the similarity score. 0 turns the corpus
   * off. Default 2.
   */
  corpusWeight?: number;
  /**
   * The training weight of what a catch-all option (named `general`, `other`, `misc`…, or
   * described as "anything else") borrows: the generic archetypes (small talk, trivia, questions
   * about the company) no other option took, which also count as its examples in the similarity
   * score. Default 1.
   */
  catchAllCorpusWeight?: number;
  /**
   * How close (cosine) an option must be to an archetype to borrow from it. Default 0.65: a
   * description listing many kinds of request ("poems, stories, speeches, toasts, eulogies…") is
   * 0.72 from its archetype and 0.2 closer to it than to any other route; the margin guards the
   * rest (corpusMargin).
   */
  corpusMatch?: number;
  /**
   * How much closer (cosine) an option must be to an archetype than any other option is, to
   * borrow from it. Default 0.1.
   */
  corpusMargin?: number;
  /**
   * The number of an option's own examples at which what it borrows weighs half of
   * `corpusWeight`: borrowed messages weigh corpusWeight × h / (h + own examples), so a route's
   * own examples dominate when it has them. Default 1000: on the development sets borrowed
   * messages did best weighing the same whatever a route's examples (5: −0.3 points, 20: −0.1).
   * With examples written by another hand than the messages, five of them say less than the
   * corpus does.
   */
  corpusHalfWeightExamples?: number;
  /** An intent corpus in the format of `src/embedded/scripts/build-intent-corpus.mjs`; default: the shipped one. */
  corpusPath?: string;
  /**
   * Weight of the exact-word evidence beside the classifier's logit: the IDF-weighted share of
   * the input's content words (lightly stemmed) found in each option's name, description and
   * examples; one number for both kinds of question, or each. 0 turns it off. Default 8 with
   * examples, 32 without.
   */
  lexicalWeight?: number | Partial<PerQuestionKind>;
  /**
   * How much the words an option's borrowed corpus messages use often ("gist", "tl;dr" for a
   * summarizing route) count in the exact-word evidence, beside its own texts' words, which
   * count 1. 0 turns it off. Default 0.5.
   */
  corpusLexicalWeight?: number;
  /** L2 penalty of the per-question classifier: higher stays closer to plain similarity. Default 0.01. */
  regularization?: number;
  /** Weights of the feature blocks beside the topic vector. */
  features?: Partial<FeatureWeights>;
  /** Word weighting: frequency damping, stop-word weight, centring. */
  weighting?: Partial<WordWeighting>;
  /**
   * Weights of the messages of a `{ messages }` input. Default: the last user message 1, earlier
   * user messages 0.5, assistant messages 0.25.
   */
  messageWeights?: Partial<MessageWeights>;
  /**
   * How much more the earlier messages count when the last user message names no topic of its own
   * ("yes, go ahead"): 0 turns it off. Default 6.
   */
  followUpWeight?: number;
  /**
   * How much a task-plus-payload message's instruction ("summarize this:", "…\n\nrewrite this
   * politely") counts beside the whole message, so that a pasted text's topic does not outvote
   * the request (instruction-payload.ts): 0 turns it off. Default 8.
   */
  instructionWeight?: number;
  /**
   * Strength of the within-class normalization of the topic vectors (intent-metric.ts), measured
   * on the intent corpus: directions in which messages of one intent differ (what a pasted text
   * is about) count less, those that tell intents apart more. 0 turns it off, 1 whitens fully.
   * Used with the shipped vectors and the default weighting only. Default 1.
   */
  intentMetric?: number;
  /** A vector file in the format of `src/embedded/scripts/build-word-vectors.mjs`; default: the shipped one. */
  vectorsPath?: string;
  /** Vectors already in memory (wins over `vectorsPath`). */
  vectors?: WordVectors;
  /** Bound of the cache of option text features. Default 10,000 texts. */
  maxCachedTexts?: number;
}

/**
 * Defaults chosen on the development items of bench/decision/data/decision-eval.json only, never on its
 * held-out items: a coordinate search maximizing the mean accuracy over the sets, whose 5-fold
 * cross-validation the bench reports (bench/decision/lib/decision-tuning.ts); then the temperatures.
 */
export const EMBEDDED_VECTOR_DEFAULTS = {
  temperature: { examples: 4, descriptionsOnly: 8 } as Readonly<PerQuestionKind>,
  descriptionWeight: 0.3,
  topExamples: 1,
  similarityWeight: { examples: 4, descriptionsOnly: 32 } as Readonly<PerQuestionKind>,
  regularization: 0.01,
  followUpWeight: 6,
  instructionWeight: 8,
  corpusWeight: 2,
  catchAllCorpusWeight: 1,
  corpusMatch: 0.65,
  corpusMargin: 0.1,
  corpusHalfWeightExamples: 1000,
  lexicalWeight: { examples: 8, descriptionsOnly: 32 } as Readonly<PerQuestionKind>,
  corpusLexicalWeight: 0.5,
  intentMetric: 1,
  messageWeights: { lastUser: 1, earlierUser: 0.5, assistant: 0.25 } as Readonly<MessageWeights>,
  maxCachedTexts: 10_000,
} as const;
