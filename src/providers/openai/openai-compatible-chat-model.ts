import OpenAI from 'openai';
import type { BaseChatModelOptions } from '../../core/chat/base-chat-model.js';
import { Capability } from '../../core/chat/capability.js';
import type { ChatCallOptions, ChatStreamEvent } from '../../core/chat/chat-model.js';
import type { ChatRequest } from '../../core/chat/request.js';
import type { ChatResponse } from '../../core/chat/response.js';
import type { Clock } from '../../core/clock.js';
import { InvalidConfigurationException } from '../../core/errors/exceptions.js';
import { ProviderException } from '../../core/errors/provider-exception.js';
import { emptyAnswerError } from '../shared/empty-answer.js';
import { OptionChecks } from '../shared/option-checks.js';
import {
  fromStreamErrorPayload,
  toProviderError,
  type ProviderErrorContext,
} from '../shared/provider-error-mapper.js';
import { lowerCasedHeaders } from '../shared/http/provider-http.js';
import type { ProviderHttpOptions } from '../shared/http/provider-pools.js';
import {
  type OpenedStream,
  SdkChatModel,
  type SdkEndpoint,
  type SseBody,
} from '../shared/sdk-chat-model.js';
import { sdkClientOptions } from '../shared/sdk-client-options.js';
import { expectOnlyTail, markCompleted } from '../shared/http/pooled-sse-body.js';
import { SseDecoder } from '../shared/sse-reader.js';
import {
  MALFORMED_CHUNK_POLICIES,
  parseChunk,
  truncatedStream,
  type MalformedChunkPolicy,
} from '../shared/stream-guards.js';
import { fromOpenAiCompletion, isAbortedFinish } from './openai-response-mapper.js';
import { toOpenAiBody } from './openai-request-mapper.js';
import { OpenAiStreamAssembler } from './openai-stream-assembler.js';

export interface OpenAiCompatibleChatModelOptions extends BaseChatModelOptions {
  /** The model id sent to the server (`gpt-4o-mini`, `llama3.1`, …). */
  model: string;
  /** e.g. `http://localhost:11434/v1` for Ollama; default OpenAI's API. */
  baseURL?: string;
  /**
   * Default `OPENAI_API_KEY`. Local servers that need no key accept any non-empty value.
   * Never appears in errors, events or logs: it is redacted from provider messages.
   */
  apiKey?: string;
  /** Sent with every request (e.g. a gateway's routing header). */
  headers?: Record<string, string>;
  /**
   * Ms a non-streamed answer may take in full, and a stream until its response starts. Idle and
   * first-token timeouts, retries and deadlines belong to the resilience layer.
   */
  timeout?: number;
  /** SDK retries; default 0, because retrying is the resilience layer's job. */
  maxRetries?: number;
  /** Names the provider in errors and events; default `openai`. */
  providerName?: string;
  /** Ask for token logprobs; they are reported in `aiMessage.attributes.logprobs`. */
  logprobs?: boolean;
  /** How many alternatives per token (0–20); implies `logprobs`. */
  topLogprobs?: number;
  /** A malformed SSE chunk fails the stream (default) or is skipped with a `stream-chunk-skipped` event. */
  malformedChunks?: MalformedChunkPolicy;
  /**
   * Whether a request's `parameters.modelName` may replace `model`. Default false: the model id
   * is configuration, so a caller cannot make this model fail (and cool down) by naming another.
   */
  allowModelOverride?: boolean;
  /**
   * The server continues a trailing assistant message (vLLM, llama.cpp, DeepSeek…): declares
   * `ASSISTANT_PREFILL`, which streaming continuation relies on. Default false.
   */
  assistantPrefill?: boolean;
  /** Which body field carries `maxOutputTokens`; default `max_tokens` (what most compatible servers read). */
  maxTokensParameter?: 'max_tokens' | 'max_completion_tokens';
  /** Sends `strict: true` with JSON schemas (OpenAI structured outputs); default false. */
  strictJsonSchema?: boolean;
  /** Asks for usage in streams (`stream_options.include_usage`); default true. */
  streamUsage?: boolean;
  /** Extra body fields for every request (e.g. vLLM's `continue_final_message`). */
  extraBody?: Record<string, unknown>;
  /**
   * Sends `prompt_cache_key` (the request's `promptCacheKey`, else a key derived from its system
   * prompt and first message) so turns of one conversation hit the provider's prompt cache.
   * Default true for OpenAI's own API, false for other servers (which may refuse the field); a
   * request's own `promptCacheKey` is sent either way.
   */
  promptCacheKey?: boolean;
  /**
   * A client of your own (e.g. `AzureOpenAI`): calls then go through it (the SDK's fetch), and
   * `baseURL`, `apiKey`, `headers`, `maxRetries` and `http` are ignored.
   */
  client?: OpenAI;
  /** The connection pool of the project's own HTTP path (connections, keep-alive, a dispatcher). */
  http?: ProviderHttpOptions;
  /** For `Retry-After` HTTP dates. */
  clock?: Clock;
}

const CLIENT_OWNER = {
  className: 'OpenAiCompatibleChatModel',
  apiKeyEnv: 'OPENAI_API_KEY',
  officialHost: 'api.openai.com',
  hint: 'a local server such as Ollama needs none: give its baseURL, leave apiKey out',
};
const DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/** Calls go to api.openai.com (not a client of the caller's own, nor another server). */
function isOpenAisOwnApi(options: OpenAiCompatibleChatModelOptions): boolean {
  if (options.client !== undefined) return false;
  const url = options.baseURL ?? (process.env.OPENAI_BASE_URL || DEFAULT_BASE_URL);
  try {
    return new URL(url).host === CLIENT_OWNER.officialHost;
  } catch {
    return false;
  }
}

/**
 * A chat model on any OpenAI-compatible chat completions API (OpenAI, Azure-style gateways,
 * vLLM, llama.cpp server, LM Studio, Ollama's `/v1`): the official `openai` SDK's request and
 * error types, sent over a keep-alive undici pool (or through an SDK client you give it).
 *
 * Failures become `ProviderException` (kind, status, code, retryAfterMs, key-free message); the
 * caller's abort comes back as its own abort reason. A streamed answer is complete only when the
 * server gave a finish reason; a stream that ends without one throws (`stream_truncated`).
 * A `content_filter` finish is a response with `finishReason: 'content_filter'`, not an error.
 */
export class OpenAiCompatibleChatModel extends SdkChatModel<
  OpenAI,
  OpenAiCompatibleChatModelOptions
> {
  protected readonly streamUsage: boolean;
  /** Whether a derived `prompt_cache_key` goes with each request (see the option). */
  protected readonly promptCacheKey: boolean;

  constructor(options: OpenAiCompatibleChatModelOptions) {
    validate(options);
    const declared: Capability[] = [Capability.RESPONSE_FORMAT_JSON_SCHEMA];
    if (options.assistantPrefill) declared.push(Capability.ASSISTANT_PREFILL);
    super(options, {
      providerName: 'openai',
      capabilities: declared,
      createClient: OpenAiCompatibleChatModel.prototype.createClient,
    });
    this.streamUsage = options.streamUsage ?? true;
    this.promptCacheKey = options.promptCacheKey ?? isOpenAisOwnApi(options);
  }

  /** Override to customise the SDK client (fetch, proxy agent, logger…). */
  protected createClient(options: OpenAiCompatibleChatModelOptions): OpenAI {
    return new OpenAI(sdkClientOptions(options, CLIENT_OWNER));
  }

  /** What the SDK would send: its base URL (and `OPENAI_BASE_URL`), bearer key, org and project. */
  protected createEndpoint(options: OpenAiCompatibleChatModelOptions): SdkEndpoint {
    const { apiKey, maxRetries } = sdkClientOptions(options, CLIENT_OWNER);
    const organization = process.env.OPENAI_ORG_ID;
    const project = process.env.OPENAI_PROJECT_ID;
    return {
      apiKey,
      baseURL: options.baseURL ?? (process.env.OPENAI_BASE_URL || DEFAULT_BASE_URL),
      headers: {
        accept: 'application/json',
        'content-type': 'application/json',
        authorization: `Bearer ${apiKey}`,
        ...(organization ? { 'openai-organization': organization } : {}),
        ...(project ? { 'openai-project': project } : {}),
        ...lowerCasedHeaders(options.headers),
      },
      maxRetries,
      chatPath: COMPLETIONS_PATH,
      ...(options.http ? { http: options.http } : {}),
      errors: {
        status: (status, body, message, headers) =>
          OpenAI.APIError.generate(status, body, message, headers),
        connection: (cause) => new OpenAI.APIConnectionError({ cause }),
      },
    };
  }

  protected override async doChat(
    request: ChatRequest,
    options: ChatCallOptions,
  ): Promise<ChatResponse> {
    const model = this.modelFor(request);
    const body = { ...this.buildBody(request, model), stream: false as const };
    const http = this.http;
    const { data: completion, quota } = await this.callSdk(model, options.signal, (signal) =>
      http
        ? this.sendJson<OpenAI.ChatCompletion>(http, COMPLETIONS_PATH, body, signal)
        : this.withQuota(this.client.chat.completions.create(body, this.requestOptions(signal))),
    );
    const reason = completion.choices?.[0]?.finish_reason as string | null | undefined;
    if (isAbortedFinish(reason)) {
      throw new ProviderException(
        `${this.providerName} model '${model}' failed: the server gave the answer up (finish_reason '${reason}'); it is truncated`,
        { kind: 'transient', provider: this.providerName, model, code: 'answer_aborted' },
      );
    }
    const response = fromOpenAiCompletion(completion, model);
    if (!response) {
      throw new ProviderException(
        `${this.providerName} model '${model}' failed: the response has no choices`,
        {
          kind: 'transient',
          provider: this.providerName,
          model,
          code: 'empty_response',
        },
      );
    }
    const empty = emptyAnswerError(response, request, this.errorContext(model, options.signal));
    if (empty) throw empty;
    return this.answered(request, response, quota);
  }

  protected async openStream(
    request: ChatRequest,
    model: string,
    signal: AbortSignal | undefined,
  ): Promise<OpenedStream> {
    const body = {
      ...this.buildBody(request, model),
      stream: true as const,
      ...(this.streamUsage ? { stream_options: { include_usage: true } } : {}),
    };
    if (this.http) return this.http.stream(COMPLETIONS_PATH, body, signal);
    const response = await this.client.chat.completions
      .create(body, this.requestOptions(signal))
      .asResponse();
    return { body: response.body as SseBody, headers: response.headers };
  }

  protected async *readStream(
    sse: SseBody,
    model: string,
    errors: ProviderErrorContext,
    options: ChatCallOptions,
  ): AsyncGenerator<ChatStreamEvent> {
    const assembler = new OpenAiStreamAssembler(model);
    const guard = { errors, policy: this.malformedChunks, call: options };
    let sawDone = false;
    try {
      if (!sse) throw truncatedStream(errors, 'the response had no body');
      const decoder = new SseDecoder();
      pieces: for await (const piece of sse) {
        for (const message of decoder.push(piece)) {
          if (message.data.trim() === '[DONE]') {
            sawDone = true;
            markCompleted(sse);
            break pieces;
          }
          const chunk = parseChunk(message.data, guard) as Record<string, unknown> | undefined;
          if (chunk === undefined || chunk === null || typeof chunk !== 'object') continue;
          if (chunk.error) throw fromStreamErrorPayload(chunk.error, errors);
          yield* assembler.push(chunk);
          // finished and usage in: complete now, without waiting for [DONE] (which may never come)
          if (assembler.finished && (assembler.hasUsage || !this.streamUsage)) {
            markCompleted(sse);
            break pieces;
          }
        }
        if (decoder.failure) throw decoder.failure;
        // finished, usage asked for: it comes at once or not at all (many servers ignore the ask)
        if (assembler.finished) expectOnlyTail(sse, USAGE_WAIT_MS);
      }
    } catch (error) {
      throw toProviderError(error, errors);
    }
    if (!assembler.finished) {
      throw truncatedStream(
        errors,
        sawDone ? '[DONE] arrived without a finish_reason' : 'no finish_reason',
      );
    }
    if (isAbortedFinish(assembler.rawFinishReason)) {
      throw truncatedStream(errors, `finish_reason '${assembler.rawFinishReason}'`);
    }
    yield* assembler.finish();
  }

  /** The chat completions body for a request; override to add provider-specific fields. */
  protected buildBody(request: ChatRequest, model: string) {
    return toOpenAiBody(request, {
      provider: this.providerName,
      model,
      maxTokensParameter: this.options.maxTokensParameter ?? 'max_tokens',
      strictJsonSchema: this.options.strictJsonSchema ?? false,
      logprobs: this.options.logprobs === true || this.options.topLogprobs !== undefined,
      ...(this.options.topLogprobs === undefined ? {} : { topLogprobs: this.options.topLogprobs }),
      ...(this.options.extraBody ? { extraBody: this.options.extraBody } : {}),
      promptCacheKey: this.promptCacheKey,
    });
  }
}

const COMPLETIONS_PATH = '/chat/completions';
/**
 * How long a finished stream may take to bring its usage chunk (OpenAI sends it right after the
 * finish reason) before it completes without: a server that ignores `include_usage` and holds
 * the stream open must not make a whole answer fail on the idle timeout.
 */
const USAGE_WAIT_MS = 1_000;

function validate(options: OpenAiCompatibleChatModelOptions): void {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidConfigurationException(
      'OpenAiCompatibleChatModel: options are required ({ model, apiKey, baseURL? })',
    );
  }
  const check = new OptionChecks(`OpenAiCompatibleChatModel '${String(options.model)}'`);
  check.nonEmptyString('model', options.model);
  check.optionalUrl('baseURL', options.baseURL);
  check.optionalApiKey('apiKey', options.apiKey, [options.providerName, 'openai']);
  check.optionalHeaders('headers', options.headers);
  check.optionalPositiveNumber('timeout', options.timeout);
  check.optionalInteger('maxRetries', options.maxRetries, 0, 10);
  check.optionalString('providerName', options.providerName);
  check.optionalBoolean('logprobs', options.logprobs);
  check.optionalInteger('topLogprobs', options.topLogprobs, 0, 20);
  check.optionalOneOf('malformedChunks', options.malformedChunks, MALFORMED_CHUNK_POLICIES);
  check.optionalBoolean('assistantPrefill', options.assistantPrefill);
  check.optionalOneOf('maxTokensParameter', options.maxTokensParameter, [
    'max_tokens',
    'max_completion_tokens',
  ]);
  check.optionalBoolean('strictJsonSchema', options.strictJsonSchema);
  check.optionalBoolean('streamUsage', options.streamUsage);
  check.optionalBoolean('promptCacheKey', options.promptCacheKey);
  check.optionalHttp('http', options.http);
}
