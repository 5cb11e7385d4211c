import { abortReason } from '../../core/chat/abort.js';
import type { EmbedOptions, EmbeddingResult } from '../../core/embeddings/embedding-model.js';
import { routingTracer } from '../../core/observability/tracing.js';
import { tracedCall } from '../shared/traced-attempt.js';
import { InvalidConfigurationException } from '../../core/errors/exceptions.js';
import { ProviderException } from '../../core/errors/provider-exception.js';
import { ModelTimeoutException } from '../../core/errors/timeout-exception.js';
import { kindOfHttpStatus } from '../../core/resilience/error-classification.js';
import { parseRetryAfter } from '../../core/resilience/retry-after.js';
import { plainWordKeyProblem } from '../shared/plain-word-key.js';

/** Embeds texts, one vector per text, in order. Must honour `signal`. */
export type EmbedFunction = (
  texts: string[],
  signal?: AbortSignal,
) => Promise<readonly ArrayLike<number>[]>;

export interface OpenAiCompatibleEmbeddingsOptions {
  /** e.g. `https://api.openai.com/v1`, `http://localhost:11434/v1`; `/embeddings` is appended. */
  baseURL: string;
  apiKey?: string;
  /** e.g. `text-embedding-3-small`, `nomic-embed-text`. */
  model: string;
  /** Requested vector size, for models that support shortening (OpenAI's v3 models). */
  dimensions?: number;
  headers?: Record<string, string>;
  /** Per request. Default 30 s. */
  timeoutMs?: number;
  /** Replaces the global fetch (proxies, tests). */
  fetch?: typeof fetch;
}

const PROVIDER = 'openai-compatible-embeddings';

/**
 * A minimal client of the OpenAI embeddings API (`POST {baseURL}/embeddings`) on the platform's
 * fetch: core must not depend on provider SDKs. Failures become a ProviderException with the
 * HTTP status, provider code and Retry-After, never carrying the API key; a timeout becomes a
 * ModelTimeoutException; the caller's abort rejects with its reason.
 */
export function openAiCompatibleEmbed(options: OpenAiCompatibleEmbeddingsOptions): EmbedFunction {
  const embeddings = openAiCompatibleEmbeddings(options);
  return async (texts, signal) => (await embeddings(texts, signal ? { signal } : {})).vectors;
}

/** The same client, with the answer's usage and model and a per-call `dimensions`. */
export function openAiCompatibleEmbeddings(
  options: OpenAiCompatibleEmbeddingsOptions,
): (texts: string[], call: EmbedOptions) => Promise<EmbeddingResult> {
  if (typeof options.baseURL !== 'string' || !/^https?:\/\//.test(options.baseURL)) {
    throw new InvalidConfigurationException(
      `baseURL must be an http(s) URL such as http://localhost:11434/v1, got '${String(options.baseURL)}'`,
    );
  }
  if (typeof options.model !== 'string' || !options.model.trim()) {
    throw new InvalidConfigurationException('an embeddings endpoint needs a model name (model)');
  }
  const keyProblem =
    typeof options.apiKey === 'string' ? plainWordKeyProblem(options.apiKey) : undefined;
  if (keyProblem !== undefined) {
    throw new InvalidConfigurationException(`an embeddings endpoint's apiKey ${keyProblem}`);
  }
  const timeoutMs = options.timeoutMs ?? 30_000;
  if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
    throw new InvalidConfigurationException(
      `timeoutMs must be a positive number, got ${timeoutMs}`,
    );
  }
  const url = `${options.baseURL.replace(/\/+$/, '')}/embeddings`;
  const doFetch = options.fetch ?? fetch;
  const secret = options.apiKey;
  const redact = (text: string) =>
    secret && secret.length >= 4 ? text.split(secret).join('[REDACTED]') : text;

  const send = async (
    texts: string[],
    { signal, dimensions = options.dimensions }: EmbedOptions,
    traced: Record<string, string> | undefined,
  ): Promise<EmbeddingResult> => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    const body: Record<string, unknown> = {
      model: options.model,
      input: texts,
      encoding_format: 'float',
    };
    if (dimensions !== undefined) body.dimensions = dimensions;
    let response: Response;
    let payload: unknown;
    try {
      response = await doFetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          ...options.headers,
          ...traced,
          ...(secret ? { authorization: `Bearer ${secret}` } : {}),
        },
        body: JSON.stringify(body),
        signal: combined,
      });
      const text = await response.text();
      payload = text ? safeJson(text) : undefined;
    } catch (error) {
      if (signal?.aborted) throw abortReason(signal);
      if (timeout.aborted) throw new ModelTimeoutException('attempt', timeoutMs, options.model);
      const cause = error as Error & { cause?: { code?: string; message?: string } };
      throw new ProviderException(
        redact(
          `embeddings endpoint ${url} could not be reached: ${cause.cause?.code ?? cause.cause?.message ?? cause.message}`,
        ),
        { kind: 'transient', provider: PROVIDER, model: options.model, cause: error },
      );
    }
    if (!response.ok) throw httpError(response, payload, url, options.model, redact);
    const answer = payload as { model?: unknown; usage?: { prompt_tokens?: unknown } } | undefined;
    const inputTokens = answer?.usage?.prompt_tokens;
    return {
      vectors: vectorsOf(payload, texts.length, url),
      ...(typeof inputTokens === 'number' ? { usage: { inputTokens } } : {}),
      modelName: typeof answer?.model === 'string' && answer.model ? answer.model : options.model,
    };
  };
  return (texts, call) => {
    const tracer = routingTracer();
    if (tracer === undefined) return send(texts, call, undefined);
    // the wire is OpenAI's, whoever serves it
    const start = {
      operation: 'embeddings',
      provider: 'openai',
      requestModel: options.model,
    } as const;
    return tracedCall(
      tracer,
      start,
      call.signal,
      () => send(texts, call, tracer.outgoingHeaders()),
      (result) => ({
        ...(result.modelName !== undefined ? { responseModel: result.modelName } : {}),
        ...(result.usage?.inputTokens !== undefined
          ? { inputTokens: result.usage.inputTokens }
          : {}),
      }),
    );
  };
}

function httpError(
  response: Response,
  payload: unknown,
  url: string,
  model: string,
  redact: (text: string) => string,
): ProviderException {
  const error = (
    payload as { error?: { message?: unknown; code?: unknown; type?: unknown } } | undefined
  )?.error;
  const code =
    typeof error?.code === 'string'
      ? error.code
      : typeof error?.type === 'string'
        ? error.type
        : undefined;
  const detail = typeof error?.message === 'string' ? `: ${error.message}` : '';
  const retryAfterMs = parseRetryAfter(response.headers);
  return new ProviderException(
    redact(`embeddings endpoint ${url} answered ${response.status}${detail}`),
    {
      kind: kindOfHttpStatus(response.status, code) ?? 'unknown',
      provider: PROVIDER,
      model,
      status: response.status,
      ...(code !== undefined ? { code } : {}),
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    },
  );
}

/** `data[].embedding` in `index` order; float arrays, or base64 float32 from servers that ignore the format. */
function vectorsOf(payload: unknown, expected: number, url: string): number[][] {
  const data = (payload as { data?: unknown } | undefined)?.data;
  if (!Array.isArray(data) || data.length !== expected) {
    throw malformed(
      url,
      `expected ${expected} embeddings in data[], got ${Array.isArray(data) ? data.length : 'none'}`,
    );
  }
  const ordered = data.toSorted(
    (a, b) => ((a as { index?: number }).index ?? 0) - ((b as { index?: number }).index ?? 0),
  );
  return ordered.map((item, i) => {
    const embedding = (item as { embedding?: unknown }).embedding;
    if (typeof embedding === 'string') {
      // copied: a pooled Buffer's offset need not be a multiple of 4
      const bytes = new Uint8Array(Buffer.from(embedding, 'base64'));
      return Array.from(new Float32Array(bytes.buffer, 0, Math.floor(bytes.byteLength / 4)));
    }
    if (!Array.isArray(embedding) || embedding.some((x) => typeof x !== 'number')) {
      throw malformed(url, `data[${i}].embedding is not a list of numbers`);
    }
    return embedding as number[];
  });
}

function malformed(url: string, what: string): ProviderException {
  return new ProviderException(`embeddings endpoint ${url} sent a malformed answer: ${what}`, {
    kind: 'unknown',
    provider: PROVIDER,
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
