import { throwIfAborted } from '../core/chat/abort.js';
import { learnedText } from '../core/decision/decision-feedback.js';
import type {
  ChoiceAnswer,
  ChoiceOption,
  ChoiceQuestion,
  DecisionModel,
  DecisionRequest,
  LearnRequest,
} from '../core/decision/decision-model.js';
import { LearnedOptions, type LearnedReading } from './learned-options.js';
import { logProbabilities } from './learned-evidence.js';
import { namesNoTopic, termBag, type TermBag } from './learned-terms.js';
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
import {
  EMBEDDED_VECTOR_DEFAULTS,
  type EmbeddedVectorDecisionModelOptions,
} from './embedded-vector-options.js';

export { EMBEDDED_VECTOR_DEFAULTS, type EmbeddedVectorDecisionModelOptions };

/**
 * An input as a decision reads it: features and weighted stems, and the terms the learned
 * examples' evidence reads (computed on first use: a question without learned examples needs none).
 */
export interface InputReading extends LearnedReading {
  readonly features: DecisionFeatures;
  readonly stems: Map<string, number>;
}

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
    this.learned = new LearnedOptions(
      (input, question) => this.readToLearn(input, question),
      options,
    );
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
    const reading = this.read(request.input);
    const names = options.map((option) => option.name);
    if (reading.empty)
      return answerFromScores(
        names,
        Array.from(names, () => 0),
        1,
      );
    const { logits, temperature } = this.zeroShot(options, reading);
    const evidence = this.learned.evidence(options, request.scope);
    if (!evidence) return answerFromScores(names, Array.from(logits), temperature);
    // the zero-shot model's log-probabilities are the prior the learned evidence adds to
    const prior = logProbabilities(logits, temperature);
    evidence.addScores(reading.topic, reading.terms, prior, learnedText(request.input).trim());
    return answerFromScores(names, Array.from(prior), 1);
  }

  /** The fitted classifier's logits for a reading, and the temperature they are read at. */
  protected zeroShot(options: readonly ChoiceOption[], reading: InputReading) {
    const classifier = this.classifier(options);
    const temperature = classifier.withExamples
      ? this.temperature.examples
      : this.temperature.descriptionsOnly;
    return { logits: classifier.logits(reading.features, reading.stems), temperature };
  }

  /** A learned input's reading, and its zero-shot answer when its question is known. */
  private readToLearn(input: DecisionRequest['input'], options?: readonly ChoiceOption[]) {
    const reading = this.read(input);
    if (!options || reading.empty) return reading;
    const { logits, temperature } = this.zeroShot(options, reading);
    return { ...reading, prior: logProbabilities(logits, temperature) };
  }

  /** What a decision, and learning, read of an input; each part computed once. */
  protected read(input: DecisionRequest['input']): InputReading {
    const texts = weightedInputTexts(input, this.messageWeights);
    const split = lastUserSplit(input);
    const instruction = this.instructionOf(input, split);
    const features = inputFeatures(
      input,
      texts,
      this.space(),
      this.followUpWeight,
      instruction,
      split !== undefined,
    );
    let terms: TermBag | undefined;
    return {
      features,
      topic: features.topic,
      empty: features.empty,
      // the instruction's words weigh as much in the exact-word evidence as in the features
      stems: weightedStems(instruction ? [...texts, instruction] : texts),
      get terms() {
        const last = typeof input === 'string' ? undefined : texts.at(-1)?.text;
        return (terms ??= termBag(texts, last !== undefined && namesNoTopic(last)));
      },
    };
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
