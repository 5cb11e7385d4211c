import { raceAbort, throwIfAborted } from '../../core/chat/abort.js';
import {
  InvalidConfigurationException,
  InvalidDecisionResponseException,
} from '../../core/errors/exceptions.js';
import type {
  ChoiceAnswer,
  ChoiceOption,
  DecisionModel,
  DecisionRequest,
} from '../../core/decision/decision-model.js';
import {
  DEFAULT_MESSAGE_WEIGHTS,
  type MessageWeights,
  validatedOptions,
  weightedInputTexts,
} from '../../core/decision/models/decision-input-texts.js';
import {
  type EmbedFunction,
  openAiCompatibleEmbed,
  type OpenAiCompatibleEmbeddingsOptions,
} from './openai-compatible-embed.js';
import {
  checkFraction,
  checkNonNegative,
  checkPositive,
  checkPositiveInteger,
} from '../../core/decision/models/option-validation.js';
import {
  answerFromScores,
  optionScore,
  type SimilarityWeights,
  type Vector,
  weightedSum,
} from '../../core/decision/models/similarity-scoring.js';
import { TextVectorCache } from '../../core/decision/models/text-vector-cache.js';
import { routingTracer } from '../../core/observability/tracing.js';

export interface EmbeddingScoringOptions {
  /** Softmax temperature over the option scores (cosine units). Default 0.05. */
  temperature?: number;
  /** Share of the description when an option has examples (0…1). Default 0.7. */
  descriptionWeight?: number;
  /** How many of an option's closest examples are averaged. Default 1. */
  topExamples?: number;
  /** Weights of the messages of a `{ messages }` input. */
  messageWeights?: Partial<MessageWeights>;
  /** Bound of the cache of option embeddings. Default 10,000 texts. */
  maxCachedTexts?: number;
}

export type EmbeddingDecisionModelOptions = EmbeddingScoringOptions &
  (
    | { /** Any embedding source: one vector per text, in order. */ embed: EmbedFunction }
    | OpenAiCompatibleEmbeddingsOptions
  );

export const EMBEDDING_DECISION_DEFAULTS = {
  temperature: 0.05,
  descriptionWeight: 0.7,
  topExamples: 1,
  maxCachedTexts: 10_000,
} as const;

/**
 * Decides with an embedding model: `{ baseURL, apiKey, model }` of any OpenAI-compatible
 * `/embeddings` endpoint (OpenAI, vLLM, Ollama, LM Studio…) or an injected `embed` function.
 * Option texts (descriptions and examples) are embedded once and cached by text; each decision
 * embeds only the input, in one request together with any option text not seen before. Scoring is
 * the embedded model's: cosine against the description and the closest examples, then a softmax.
 */
export class EmbeddingDecisionModel implements DecisionModel {
  protected readonly embed: EmbedFunction;
  protected readonly temperature: number;
  protected readonly similarity: SimilarityWeights;
  protected readonly messageWeights: MessageWeights;
  private readonly cache: TextVectorCache<Vector>;

  constructor(options: EmbeddingDecisionModelOptions) {
    if (typeof options !== 'object' || options === null) {
      throw new InvalidConfigurationException(
        'EmbeddingDecisionModel needs { baseURL, apiKey, model } or { embed } (options)',
      );
    }
    checkPositive(options.temperature, 'temperature');
    checkFraction(options.descriptionWeight, 'descriptionWeight');
    checkPositiveInteger(options.topExamples, 'topExamples');
    checkPositiveInteger(options.maxCachedTexts, 'maxCachedTexts');
    for (const key of ['lastUser', 'earlierUser', 'assistant'] as const) {
      checkNonNegative(options.messageWeights?.[key], `messageWeights.${key}`);
    }
    if ('embed' in options) {
      if (typeof options.embed !== 'function') {
        throw new InvalidConfigurationException(
          'embed must be a function (texts, signal) => vectors',
        );
      }
      this.embed = options.embed;
    } else {
      this.embed = openAiCompatibleEmbed(options);
    }
    this.temperature = options.temperature ?? EMBEDDING_DECISION_DEFAULTS.temperature;
    this.similarity = {
      descriptionWeight: options.descriptionWeight ?? EMBEDDING_DECISION_DEFAULTS.descriptionWeight,
      topExamples: options.topExamples ?? EMBEDDING_DECISION_DEFAULTS.topExamples,
    };
    this.messageWeights = { ...DEFAULT_MESSAGE_WEIGHTS, ...options.messageWeights };
    this.cache = new TextVectorCache(
      options.maxCachedTexts ?? EMBEDDING_DECISION_DEFAULTS.maxCachedTexts,
    );
  }

  async decide(request: DecisionRequest): Promise<ChoiceAnswer> {
    throwIfAborted(request?.signal);
    const options = validatedOptions(request);
    const inputs = weightedInputTexts(request.input, this.messageWeights);
    const names = options.map((option) => option.name);
    // Nothing to place: uniform probabilities and the first option, without a request.
    if (inputs.length === 0)
      return answerFromScores(
        names,
        names.map(() => 0),
        this.temperature,
      );
    const vectors = await this.vectorsFor(
      [...inputs.map((input) => input.text), ...optionTexts(options)],
      inputs.length,
      request.signal,
    );
    const input = weightedSum(
      inputs.map(({ text, weight }) => ({ vector: vectors.get(text)!, weight })),
    );
    const scores = options.map((option) =>
      optionScore(
        input,
        {
          description: vectors.get(option.description)!,
          examples: (option.examples ?? []).map((example) => vectors.get(example)!),
        },
        this.similarity,
      ),
    );
    return answerFromScores(names, scores, this.temperature);
  }
  /**
   * Vectors for every text: the first `uncached` texts (the input) are always embedded, the rest
   * come from the cache when they can. One embeddings request per decision at most.
   */
  protected async vectorsFor(
    texts: readonly string[],
    uncached: number,
    signal: AbortSignal | undefined,
  ): Promise<Map<string, Vector>> {
    const vectors = new Map<string, Vector>();
    const missing: string[] = [];
    texts.forEach((text, i) => {
      if (vectors.has(text) || missing.includes(text)) return;
      const cached = i < uncached ? undefined : this.cache.get(text);
      if (cached) vectors.set(text, cached);
      else missing.push(text);
    });
    if (missing.length === 0) return vectors;
    const embed = () => raceAbort(Promise.resolve(this.embed(missing, signal)), signal);
    // the embeddings request is a span of its own under the routed call
    const tracer = routingTracer();
    const embedded = await (tracer ? tracer.decision('embeddings', embed) : embed());
    checkEmbeddings(embedded, missing.length);
    const cacheable = new Set(texts.slice(uncached));
    missing.forEach((text, i) => {
      vectors.set(text, embedded[i]!);
      if (cacheable.has(text)) this.cache.set(text, embedded[i]!);
    });
    return vectors;
  }
}

function optionTexts(options: readonly ChoiceOption[]): string[] {
  return options.flatMap((option) => [option.description, ...(option.examples ?? [])]);
}

function checkEmbeddings(embedded: unknown, expected: number): asserts embedded is Vector[] {
  if (!Array.isArray(embedded) || embedded.length !== expected) {
    throw new InvalidDecisionResponseException(
      `the embedding model returned ${Array.isArray(embedded) ? embedded.length : 'no list of'} vectors for ${expected} texts`,
    );
  }
  const dimensions = (embedded[0] as Vector | undefined)?.length;
  for (const vector of embedded as unknown[]) {
    if (
      typeof (vector as Vector)?.length !== 'number' ||
      (vector as Vector).length !== dimensions ||
      dimensions === 0
    ) {
      throw new InvalidDecisionResponseException(
        'the embedding model returned vectors of different or zero dimensions',
      );
    }
  }
}
