import Anthropic from '@anthropic-ai/sdk';
import type { BaseChatModelOptions } from '../../core/chat/base-chat-model.js';
import { Capability } from '../../core/chat/capability.js';
import type { ChatCallOptions, ChatStreamEvent } from '../../core/chat/chat-model.js';
import type { ChatRequest } from '../../core/chat/request.js';
import type { ChatResponse } from '../../core/chat/response.js';
import type { Clock } from '../../core/clock.js';
import { InvalidConfigurationException } from '../../core/errors/exceptions.js';
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
import { markCompleted } from '../shared/http/pooled-sse-body.js';
import { readSseMessages } from '../shared/sse-reader.js';
import {
  MALFORMED_CHUNK_POLICIES,
  parseChunk,
  truncatedStream,
  type MalformedChunkPolicy,
} from '../shared/stream-guards.js';
import { toAnthropicBody } from './anthropic-request-mapper.js';
import { fromAnthropicMessage } from './anthropic-response-mapper.js';
import { AnthropicStreamAssembler } from './anthropic-stream-assembler.js';

export interface AnthropicChatModelOptions extends BaseChatModelOptions {
  /** e.g. `claude-sonnet-4-6`. */
  model: string;
  /** Default `ANTHROPIC_API_KEY`. Redacted from every error message. */
  apiKey?: string;
  /** Default Anthropic's API. */
  baseURL?: string;
  headers?: Record<string, string>;
  /** Ms a non-streamed answer may take in full, and a stream until its response starts. */
  timeout?: number;
  /** SDK retries; default 0, because retrying is the resilience layer's job. */
  maxRetries?: number;
  /** Names the provider in errors and events; default `anthropic`. */
  providerName?: string;
  /** `max_tokens` when a request sets no `maxOutputTokens` (the API requires one); default 4096. */
  maxTokens?: number;
  /**
   * The model supports structured outputs (`output_config.format`): declares
   * `RESPONSE_FORMAT_JSON_SCHEMA`. Default false.
   */
  structuredOutputs?: boolean;
  /**
   * Marks a long system prompt cacheable (`cache_control: { type: 'ephemeral' }`), so later
   * calls read it at the cached price: `true` from 1,024 tokens (about 4,096 characters, the
   * smallest prompt Claude caches), or `{ minTokens }`. Default false (a cache write costs more).
   */
  cacheSystemPrompt?: boolean | { minTokens: number };
  /** A malformed SSE chunk fails the stream (default) or is skipped with a `stream-chunk-skipped` event. */
  malformedChunks?: MalformedChunkPolicy;
  /**
   * Whether a request's `parameters.modelName` may replace `model`. Default false: the model id
   * is configuration, so a caller cannot make this model fail (and cool down) by naming another.
   */
  allowModelOverride?: boolean;
  /**
   * A client of your own (Bedrock, Vertex, a proxy): calls then go through it, and `apiKey`,
   * `baseURL`, `headers`, `maxRetries` and `http` are ignored.
   */
  client?: Anthropic;
  /** The connection pool of the project's own HTTP path (connections, keep-alive, a dispatcher). */
  http?: ProviderHttpOptions;
  /** For `Retry-After` HTTP dates. */
  clock?: Clock;
}

/** The SDK refuses long non-streamed calls unless a timeout is given; this is its own default. */
const NON_STREAMING_SDK_TIMEOUT_MS = 10 * 60 * 1000;

const CLIENT_OWNER = {
  className: 'AnthropicChatModel',
  apiKeyEnv: 'ANTHROPIC_API_KEY',
  officialHost: 'api.anthropic.com',
};
const DEFAULT_BASE_URL = 'https://api.anthropic.com';
/** The API version the SDK in use sends; the request and answer mappers follow its types. */
const ANTHROPIC_VERSION = '2026-10-21';
const MESSAGES_PATH = '/v1/messages';

/**
 * Claude on the official `@anthropic-ai/sdk`'s types, over a keep-alive undici pool (or through
 * an SDK client you give it): system prompt, messages, tools
 * (`tool_use` / `tool_result`), streaming, usage (cache reads and writes count as input) and
 * stop reasons. Declares `ASSISTANT_PREFILL`: a trailing assistant message is continued.
 * Failures become `ProviderException`s, as for `OpenAiCompatibleChatModel`.
 */
export class AnthropicChatModel extends SdkChatModel<Anthropic, AnthropicChatModelOptions> {
  constructor(options: AnthropicChatModelOptions) {
    validate(options);
    const declared: Capability[] = [Capability.ASSISTANT_PREFILL];
    if (options.structuredOutputs) declared.push(Capability.RESPONSE_FORMAT_JSON_SCHEMA);
    super(options, {
      providerName: 'anthropic',
      capabilities: declared,
      createClient: AnthropicChatModel.prototype.createClient,
    });
  }

  /** Override to customise the SDK client. */
  protected createClient(options: AnthropicChatModelOptions): Anthropic {
    return new Anthropic(sdkClientOptions(options, CLIENT_OWNER));
  }

  /** What the SDK would send: its base URL (and `ANTHROPIC_BASE_URL`), key and API version. */
  protected createEndpoint(options: AnthropicChatModelOptions): SdkEndpoint {
    const { apiKey, maxRetries } = sdkClientOptions(options, CLIENT_OWNER);
    return {
      apiKey,
      baseURL: options.baseURL ?? (process.env.ANTHROPIC_BASE_URL || DEFAULT_BASE_URL),
      headers: {
        accept: 'application/json',
        'content-type': 'application/json',
        // as the SDK in use sends it (older SDKs sent `x-api-key`)
        authorization: `Bearer ${apiKey}`,
        'anthropic-version': ANTHROPIC_VERSION,
        ...lowerCasedHeaders(options.headers),
      },
      maxRetries,
      chatPath: MESSAGES_PATH,
      ...(options.http ? { http: options.http } : {}),
      errors: {
        status: (status, body, message, headers) =>
          Anthropic.APIError.generate(status, body, message, headers),
        connection: (cause) => new Anthropic.APIConnectionError({ cause }),
      },
    };
  }

  protected override async doChat(
    request: ChatRequest,
    options: ChatCallOptions,
  ): Promise<ChatResponse> {
    const model = this.modelFor(request);
    const body = { ...this.buildBody(request, model), stream: false as const };
    return this.callSdk(model, options.signal, async (signal) => {
      const http = this.http;
      const { data: message, quota } = http
        ? await this.sendJson<Anthropic.Message>(http, MESSAGES_PATH, body, signal)
        : await this.withQuota(
            this.client.messages.create(body, {
              ...this.requestOptions(signal),
              timeout: NON_STREAMING_SDK_TIMEOUT_MS,
            }),
          );
      const response = fromAnthropicMessage(message, model);
      const empty = emptyAnswerError(response, request, this.errorContext(model, options.signal));
      if (empty) throw empty;
      return this.answered(request, response, quota);
    });
  }

  protected async openStream(
    request: ChatRequest,
    model: string,
    signal: AbortSignal | undefined,
  ): Promise<OpenedStream> {
    const body = { ...this.buildBody(request, model), stream: true as const };
    if (this.http) return this.http.stream(MESSAGES_PATH, body, signal);
    const response = await this.client.messages
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
    const assembler = new AnthropicStreamAssembler(model);
    const guard = { errors, policy: this.malformedChunks, call: options };
    let stopped = false;
    try {
      if (!sse) throw truncatedStream(errors, 'the response had no body');
      for await (const message of readSseMessages(sse)) {
        const event = parseChunk(message.data, guard) as Record<string, unknown> | undefined;
        if (event === undefined || event === null || typeof event !== 'object') continue;
        if (event.type === 'error' || message.event === 'error')
          throw fromStreamErrorPayload(event.error, errors);
        if (event.type === 'message_stop') {
          stopped = true;
          markCompleted(sse);
          break;
        }
        yield* assembler.push(event);
        // message_delta carries the stop reason with the final usage: nothing more is needed
        if (assembler.finished) {
          markCompleted(sse);
          break;
        }
      }
    } catch (error) {
      throw toProviderError(error, errors);
    }
    if (!assembler.finished) {
      throw truncatedStream(
        errors,
        stopped ? 'message_stop arrived without a stop_reason' : 'no stop_reason',
      );
    }
    yield assembler.finish();
  }

  /** The messages body for a request; override to add provider-specific fields. */
  protected buildBody(request: ChatRequest, model: string) {
    return toAnthropicBody(request, {
      provider: this.providerName,
      model,
      maxTokens: this.options.maxTokens ?? 4096,
      structuredOutputs: this.options.structuredOutputs ?? false,
      ...cacheSetting(this.options.cacheSystemPrompt),
    });
  }
}

/** The system prompt size (characters, four a token) from which it is marked cacheable. */
function cacheSetting(option: AnthropicChatModelOptions['cacheSystemPrompt']): {
  cacheSystemFromChars?: number;
} {
  if (!option) return {};
  return { cacheSystemFromChars: (option === true ? 1_024 : option.minTokens) * 4 };
}

function validate(options: AnthropicChatModelOptions): void {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidConfigurationException(
      'AnthropicChatModel: options are required ({ model, apiKey })',
    );
  }
  const check = new OptionChecks(`AnthropicChatModel '${String(options.model)}'`);
  check.nonEmptyString('model', options.model);
  check.optionalApiKey('apiKey', options.apiKey, [options.providerName, 'anthropic']);
  check.optionalUrl('baseURL', options.baseURL);
  check.optionalHeaders('headers', options.headers);
  check.optionalPositiveNumber('timeout', options.timeout);
  check.optionalInteger('maxRetries', options.maxRetries, 0, 10);
  check.optionalString('providerName', options.providerName);
  check.optionalInteger('maxTokens', options.maxTokens, 1);
  check.optionalBoolean('structuredOutputs', options.structuredOutputs);
  const cache = options.cacheSystemPrompt as unknown;
  if (
    cache !== undefined &&
    typeof cache !== 'boolean' &&
    !(
      typeof cache === 'object' &&
      cache !== null &&
      Number.isInteger((cache as { minTokens?: unknown }).minTokens) &&
      (cache as { minTokens: number }).minTokens > 0
    )
  ) {
    throw new InvalidConfigurationException(
      `AnthropicChatModel '${String(options.model)}': cacheSystemPrompt must be true, false or { minTokens } (a whole number > 0).`,
    );
  }
  check.optionalOneOf('malformedChunks', options.malformedChunks, MALFORMED_CHUNK_POLICIES);
  check.optionalHttp('http', options.http);
}
