import { throwIfAborted } from '../../chat/abort.js';
import type {
  ChoiceAnswer,
  ChoiceOption,
  DecisionModel,
  DecisionRequest,
} from '../decision-model.js';
import {
  DEFAULT_MESSAGE_WEIGHTS,
  type MessageWeights,
  validatedOptions,
  weightedInputTexts,
} from './decision-input-texts.js';
import {
  checkFraction,
  checkNonNegative,
  checkPositive,
  checkPositiveInteger,
} from './option-validation.js';
import {
  answerFromScores,
  optionScore,
  type OptionVectors,
  type SimilarityWeights,
  weightedSum,
} from './similarity-scoring.js';
import { TextVectorCache } from './text-vector-cache.js';
import {
  DEFAULT_WORD_WEIGHTING,
  sharedEmbedder,
  type WordVectorEmbedder,
  type WordWeighting,
} from './word-vector-embedder.js';
import { loadWordVectors, type WordVectors } from './word-vectors.js';

export interface EmbeddedVectorDecisionModelOptions {
  /** Softmax temperature over the option scores (cosine units): lower is more decisive. Default 0.04. */
  temperature?: number;
  /** Share of the description when an option has examples (0…1). Default 0.7. */
  descriptionWeight?: number;
  /** How many of an option's closest examples are averaged. Default 1 (the closest). */
  topExamples?: number;
  /** Word weighting: frequency damping, stop-word weight, centring. */
  weighting?: Partial<WordWeighting>;
  /** Weights of the messages of a `{ messages }` input. */
  messageWeights?: Partial<MessageWeights>;
  /** A vector file in the format of `scripts/build-word-vectors.mjs`; default: the shipped one. */
  vectorsPath?: string;
  /** Vectors already in memory (wins over `vectorsPath`). */
  vectors?: WordVectors;
  /** Bound of the cache of option text vectors. Default 10,000 texts. */
  maxCachedTexts?: number;
}

/**
 * Defaults chosen by leave-one-out over the examples of bench/data/decision-routes.json (each
 * example routed against the other examples), never on the held-out test messages.
 */
export const EMBEDDED_VECTOR_DEFAULTS = {
  temperature: 0.04,
  descriptionWeight: 0.7,
  topExamples: 1,
  maxCachedTexts: 10_000,
} as const;

/**
 * The zero-configuration decision model: no network, no download. Texts are embedded from the
 * GloVe word vectors shipped in `assets/`, each option is scored by cosine against its
 * description and its closest examples, and a softmax turns the scores into probabilities.
 *
 * The vectors (≈5.6 MB) are read on the first decision, once per process and file; call
 * `preload()` at start-up to pay that before the first request. An input with no known word has
 * equal scores everywhere: uniform probabilities, and the first option as the value.
 */
export class EmbeddedVectorDecisionModel implements DecisionModel {
  protected readonly temperature: number;
  protected readonly similarity: SimilarityWeights;
  protected readonly messageWeights: MessageWeights;
  protected readonly weighting: WordWeighting;
  private readonly vectorsPath: string | undefined;
  private readonly givenVectors: WordVectors | undefined;
  private readonly cache: TextVectorCache<Float64Array>;
  private textEmbedder: WordVectorEmbedder | undefined;

  constructor(options: EmbeddedVectorDecisionModelOptions = {}) {
    checkPositive(options.temperature, 'temperature');
    checkFraction(options.descriptionWeight, 'descriptionWeight');
    checkPositiveInteger(options.topExamples, 'topExamples');
    checkPositiveInteger(options.maxCachedTexts, 'maxCachedTexts');
    checkNonNegative(options.weighting?.frequencyDamping, 'weighting.frequencyDamping');
    checkNonNegative(options.weighting?.stopWordWeight, 'weighting.stopWordWeight');
    for (const key of ['lastUser', 'earlierUser', 'assistant'] as const) {
      checkNonNegative(options.messageWeights?.[key], `messageWeights.${key}`);
    }
    this.temperature = options.temperature ?? EMBEDDED_VECTOR_DEFAULTS.temperature;
    this.similarity = {
      descriptionWeight: options.descriptionWeight ?? EMBEDDED_VECTOR_DEFAULTS.descriptionWeight,
      topExamples: options.topExamples ?? EMBEDDED_VECTOR_DEFAULTS.topExamples,
    };
    this.messageWeights = { ...DEFAULT_MESSAGE_WEIGHTS, ...options.messageWeights };
    this.weighting = { ...DEFAULT_WORD_WEIGHTING, ...options.weighting };
    this.vectorsPath = options.vectorsPath;
    this.givenVectors = options.vectors;
    this.cache = new TextVectorCache(
      options.maxCachedTexts ?? EMBEDDED_VECTOR_DEFAULTS.maxCachedTexts,
    );
  }

  /** Loads the vectors now rather than on the first decision. */
  preload(): this {
    this.embedder();
    return this;
  }

  async decide(request: DecisionRequest): Promise<ChoiceAnswer> {
    throwIfAborted(request?.signal);
    const options = validatedOptions(request);
    const embedder = this.embedder();
    const input = this.inputVector(request, embedder);
    const scores = options.map((option) =>
      optionScore(input, this.optionVectors(option), this.similarity),
    );
    return answerFromScores(
      options.map((option) => option.name),
      scores,
      this.temperature,
    );
  }

  /** The input as one vector: each message embedded, then summed by its weight. */
  protected inputVector(request: DecisionRequest, embedder: WordVectorEmbedder): Float64Array {
    const texts = weightedInputTexts(request.input, this.messageWeights);
    if (texts.length === 0) return new Float64Array(embedder.dimensions);
    if (texts.length === 1) return embedder.embed(texts[0]!.text);
    return weightedSum(texts.map(({ text, weight }) => ({ vector: embedder.embed(text), weight })));
  }

  protected optionVectors(option: ChoiceOption): OptionVectors {
    return {
      description: this.textVector(option.description),
      examples: (option.examples ?? []).map((example) => this.textVector(example)),
    };
  }

  protected textVector(text: string): Float64Array {
    let vector = this.cache.get(text);
    if (!vector) {
      vector = this.embedder().embed(text);
      this.cache.set(text, vector);
    }
    return vector;
  }

  protected embedder(): WordVectorEmbedder {
    this.textEmbedder ??= sharedEmbedder(
      this.givenVectors ?? loadWordVectors(this.vectorsPath),
      this.weighting,
    );
    return this.textEmbedder;
  }
}
