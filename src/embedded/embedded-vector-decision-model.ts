import { throwIfAborted } from '../core/chat/abort.js';
import type {
  ChoiceAnswer,
  ChoiceOption,
  ChoiceQuestion,
  DecisionModel,
  DecisionRequest,
  LearnRequest,
} from '../core/decision/decision-model.js';
import { LearnedOptions, type LearnedOptionsConfig } from './learned-options.js';
import { ArchetypeMatcher } from './archetype-matcher.js';
import { shippedArchetypeMeans } from './archetype-means.js';
import { complexityPriorFor } from './complexity-prior.js';
import {
  type MessageWeights,
  validatedOptions,
  type WeightedText,
  weightedInputTexts,
} from '../core/decision/models/decision-input-texts.js';
import {
  DEFAULT_FEATURE_WEIGHTS,
  type DecisionFeatures,
  FeatureSpace,
  type FeatureWeights,
} from './decision-features.js';
import { inputFeatures } from './input-features.js';
import { type InstructionPayload, lastUserSplit } from './instruction-payload.js';
import { loadIntentCorpus } from './intent-corpus.js';
import { intentMetricFor } from './intent-metric.js';
import { weightedStems } from './lexical-overlap.js';
import {
  OptionClassifier,
  perKind,
  type ClassifierSettings,
  type PerQuestionKind,
} from './option-classifier.js';
import {
  checkCosine,
  checkPerKind,
  checkFraction,
  checkNonNegative,
  checkPositive,
  checkPositiveInteger,
} from '../core/decision/models/option-validation.js';
import { answerFromScores } from '../core/decision/models/similarity-scoring.js';
import { DEFAULT_REGRESSION } from './softmax-regression.js';
import { QuestionCache } from './question-cache.js';
import { sameWeighting } from './shipped-assets.js';
import { TextVectorCache } from '../core/decision/models/text-vector-cache.js';
import {
  DEFAULT_WORD_WEIGHTING,
  sharedEmbedder,
  type WordWeighting,
} from './word-vector-embedder.js';
import { loadWordVectors, type WordVectors } from './word-vectors.js';

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

/** Fitted classifiers kept per model; a question is fitted once while it stays in here. */
const MAX_CACHED_QUESTIONS = 256;

/**
 * The zero-configuration decision model: no network, no download. Texts become feature vectors
 * built on the GloVe word vectors shipped in `src/embedded/assets/` (what a text is about, how it is said, and
 * surface features such as length, digits and code), a small classifier is fitted per question
 * on its options' descriptions and examples, and a softmax turns its logits into probabilities.
 *
 * The vectors (≈5.6 MB) are read on the first decision, once per process and file; call
 * `preload()` at start-up to pay that before the first request. An input with no known word has
 * equal scores everywhere: uniform probabilities, and the first option as the value.
 */
export class EmbeddedVectorDecisionModel implements DecisionModel {
  protected readonly temperature: PerQuestionKind;
  protected readonly classifierSettings: ClassifierSettings;
  protected readonly messageWeights: MessageWeights;
  protected readonly followUpWeight: number;
  protected readonly instructionWeight: number;
  protected readonly weighting: WordWeighting;
  protected readonly featureWeights: FeatureWeights;
  protected readonly corpusMatch: number;
  protected readonly corpusMargin: number;
  protected readonly intentMetric: number;
  private readonly corpusPath: string | undefined;
  private archetypes: ArchetypeMatcher | undefined;
  private readonly vectorsPath: string | undefined;
  private readonly givenVectors: WordVectors | undefined;
  private readonly cache: TextVectorCache<DecisionFeatures>;
  private readonly classifiers = new QuestionCache<OptionClassifier>(MAX_CACHED_QUESTIONS);
  private featureSpace: FeatureSpace | undefined;
  private readonly learned: LearnedOptions;

  constructor(options: EmbeddedVectorDecisionModelOptions = {}) {
    checkPerKind(options.temperature, 'temperature', checkPositive);
    checkFraction(options.descriptionWeight, 'descriptionWeight');
    checkPositiveInteger(options.topExamples, 'topExamples');
    checkPerKind(options.similarityWeight, 'similarityWeight', checkNonNegative);
    checkPerKind(options.lexicalWeight, 'lexicalWeight', checkNonNegative);
    checkNonNegative(options.regularization, 'regularization');
    checkNonNegative(options.corpusWeight, 'corpusWeight');
    checkNonNegative(options.catchAllCorpusWeight, 'catchAllCorpusWeight');
    checkNonNegative(options.corpusLexicalWeight, 'corpusLexicalWeight');
    checkCosine(options.corpusMatch, 'corpusMatch');
    checkFraction(options.corpusMargin, 'corpusMargin');
    checkPositive(options.corpusHalfWeightExamples, 'corpusHalfWeightExamples');
    checkNonNegative(options.followUpWeight, 'followUpWeight');
    checkNonNegative(options.instructionWeight, 'instructionWeight');
    checkNonNegative(options.intentMetric, 'intentMetric');
    checkPositiveInteger(options.maxCachedTexts, 'maxCachedTexts');
    checkNonNegative(options.weighting?.frequencyDamping, 'weighting.frequencyDamping');
    checkNonNegative(options.weighting?.stopWordWeight, 'weighting.stopWordWeight');
    for (const key of ['lastUser', 'earlierUser', 'assistant'] as const) {
      checkNonNegative(options.messageWeights?.[key], `messageWeights.${key}`);
    }
    for (const key of Object.keys(DEFAULT_FEATURE_WEIGHTS) as (keyof FeatureWeights)[]) {
      checkNonNegative(options.features?.[key], `features.${key}`);
    }
    const defaults = EMBEDDED_VECTOR_DEFAULTS;
    this.temperature = perKind(options.temperature, defaults.temperature);
    this.classifierSettings = {
      regression: { ...DEFAULT_REGRESSION, l2: options.regularization ?? defaults.regularization },
      similarity: {
        descriptionWeight: options.descriptionWeight ?? defaults.descriptionWeight,
        topExamples: options.topExamples ?? defaults.topExamples,
      },
      similarityWeight: perKind(options.similarityWeight, defaults.similarityWeight),
      corpusWeight: options.corpusWeight ?? defaults.corpusWeight,
      catchAllCorpusWeight: options.catchAllCorpusWeight ?? defaults.catchAllCorpusWeight,
      corpusHalfWeightExamples:
        options.corpusHalfWeightExamples ?? defaults.corpusHalfWeightExamples,
      lexicalWeight: perKind(options.lexicalWeight, defaults.lexicalWeight),
      corpusLexicalWeight: options.corpusLexicalWeight ?? defaults.corpusLexicalWeight,
    };
    this.corpusMatch = options.corpusMatch ?? defaults.corpusMatch;
    this.corpusMargin = options.corpusMargin ?? defaults.corpusMargin;
    this.intentMetric = options.intentMetric ?? defaults.intentMetric;
    this.corpusPath = options.corpusPath;
    this.messageWeights = { ...defaults.messageWeights, ...options.messageWeights };
    this.followUpWeight = options.followUpWeight ?? defaults.followUpWeight;
    this.instructionWeight = options.instructionWeight ?? defaults.instructionWeight;
    this.weighting = { ...DEFAULT_WORD_WEIGHTING, ...options.weighting };
    this.featureWeights = { ...DEFAULT_FEATURE_WEIGHTS, ...options.features };
    this.vectorsPath = options.vectorsPath;
    this.givenVectors = options.vectors;
    this.cache = new TextVectorCache(options.maxCachedTexts ?? defaults.maxCachedTexts);
    this.learned = new LearnedOptions((text) => this.textFeatures(text), options);
  }

  /** Keeps `input` (a conversation: all its turns) as an example of option `route`. */
  learn(request: LearnRequest): void {
    this.learned.learn(request);
  }

  /** Loads the vectors now rather than on the first decision. */
  preload(): this {
    this.space();
    return this;
  }

  async decide(request: DecisionRequest): Promise<ChoiceAnswer> {
    throwIfAborted(request?.signal);
    const options = validatedOptions(request);
    const space = this.space();
    const texts = weightedInputTexts(request.input, this.messageWeights);
    const split = lastUserSplit(request.input);
    const instruction = this.instructionOf(request.input, split);
    const input = inputFeatures(
      request.input,
      texts,
      space,
      this.followUpWeight,
      instruction,
      split !== undefined,
    );
    const names = options.map((option) => option.name);
    if (input.empty)
      return answerFromScores(
        names,
        Array.from(names, () => 0),
        1,
      );
    const classifier = this.classifier(options);
    const temperature = classifier.withExamples
      ? this.temperature.examples
      : this.temperature.descriptionsOnly;
    // the instruction's words weigh as much in the exact-word evidence as in the features
    const terms = weightedStems(instruction ? [...texts, instruction] : texts);
    const base = classifier.logits(input, terms);
    const logits = this.learned.addScores(options, input, terms, base, request.scope);
    return answerFromScores(names, Array.from(logits), temperature);
  }

  /**
   * A task-plus-payload last message's instruction, weighing `instructionWeight` × that message's
   * weight (a string input weighs 1).
   */
  private instructionOf(
    input: DecisionRequest['input'],
    split: InstructionPayload | undefined,
  ): WeightedText | undefined {
    if (this.instructionWeight <= 0 || split === undefined) return undefined;
    const message = typeof input === 'string' ? 1 : this.messageWeights.lastUser;
    return { text: split.instruction, weight: this.instructionWeight * message };
  }

  /**
   * Loads the vectors and fits the question's classifier now (DecisionModelChatModelRouter calls
   * it with its routes at start-up), so that the first decision on it does not.
   */
  prepare(question: ChoiceQuestion): void {
    this.classifier(validatedOptions({ input: '', question }));
  }

  /** The classifier of a question, fitted on first use and kept by the options' texts. */
  protected classifier(options: readonly ChoiceOption[]): OptionClassifier {
    return this.classifiers.get(options, () => this.fit(options));
  }

  /** Fits a question's classifier (what a first decision on a question costs). */
  protected fit(options: readonly ChoiceOption[]): OptionClassifier {
    const featuresOf = (text: string) => this.textFeatures(text);
    const borrowed =
      this.classifierSettings.corpusWeight > 0
        ? this.archetypeMatcher().borrow(options, this.corpusMatch, this.corpusMargin)
        : [];
    return new OptionClassifier(options, featuresOf, this.classifierSettings, borrowed);
  }

  private archetypeMatcher(): ArchetypeMatcher {
    if (!this.archetypes) {
      const { embedder, metric } = this.space();
      this.archetypes = new ArchetypeMatcher(
        loadIntentCorpus(this.corpusPath),
        (text) => this.textFeatures(text),
        // The topic space: the embedder, and the metric when there is one (only with the
        // default weighting, so one per embedder and strength).
        metric ?? embedder,
        shippedArchetypeMeans(embedder.vectors, this.weighting, metric?.strength ?? 0),
      );
    }
    return this.archetypes;
  }

  protected textFeatures(text: string): DecisionFeatures {
    let features = this.cache.get(text);
    if (!features) {
      features = this.space().ofText(text);
      this.cache.set(text, features);
    }
    return features;
  }

  protected space(): FeatureSpace {
    if (!this.featureSpace) {
      const vectors = this.givenVectors ?? loadWordVectors(this.vectorsPath);
      this.featureSpace = new FeatureSpace(
        sharedEmbedder(vectors, this.weighting),
        this.featureWeights,
        // The prior's weights are in the space of the default weighting only.
        sameWeighting(this.weighting, DEFAULT_WORD_WEIGHTING)
          ? complexityPriorFor(vectors)
          : undefined,
        intentMetricFor(vectors, this.weighting, this.intentMetric),
      );
    }
    return this.featureSpace;
  }
}
