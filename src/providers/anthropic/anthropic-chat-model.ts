import Anthropic from '@anthropic-ai/sdk';
import type { BaseChatModelOptions } from '../../core/chat/base-chat-model.js';
import { Capability } from '../../core/chat/capability.js';
import type { ChatCallOptions, ChatStreamEvent } from '../../core/chat/chat-model.js';
import type { ChatRequest } from '../../core/chat/request.js';
import type { ChatResponse } from '../../core/chat/response.js';
import type { Clock } from '../../core/clock.js';
import { InvalidConfigurationException } from '../../core/errors/exceptions.js';
import { withRateLimit } from '../../core/limits/provider-quota.js';
import { OptionChecks } from '../shared/option-checks.js';
import {
  fromStreamErrorPayload,
  toProviderError,
  type ProviderErrorContext,
} from '../shared/provider-error-mapper.js';
import { SdkChatModel } from '../shared/sdk-chat-model.js';
import { sdkClientOptions } from '../shared/sdk-client-options.js';
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
  /** A malformed SSE chunk fails the stream (default) or is skipped with a `stream-chunk-skipped` event. */
  malformedChunks?: MalformedChunkPolicy;
  /**
   * Whether a request's `parameters.modelName` may replace `model`. Default false: the model id
   * is configuration, so a caller cannot make this model fail (and cool down) by naming another.
   */
  allowModelOverride?: boolean;
  /** A client of your own (Bedrock, Vertex, a proxy); `apiKey`, `baseURL`, `headers`, `maxRetries` are then ignored. */
  client?: Anthropic;
  /** For `Retry-After` HTTP dates. */
  clock?: Clock;
}

/** The SDK refuses long non-streamed calls unless a timeout is given; this is its own default. */
const NON_STREAMING_SDK_TIMEOUT_MS = 10 * 60 * 1000;

/**
 * Claude through the official `@anthropic-ai/sdk`: system prompt, messages, tools
 * (`tool_use` / `tool_result`), streaming, usage (cache reads and writes count as input) and
 * stop reasons. Declares `ASSISTANT_PREFILL`: a trailing assistant message is continued.
 * Failures become `ProviderException`s, as for `OpenAiCompatibleChatModel`.
 */
export class AnthropicChatModel extends SdkChatModel<Anthropic, AnthropicChatModelOptions> {
  constructor(options: AnthropicChatModelOptions) {
    validate(options);
    const declared: Capability[] = [Capability.ASSISTANT_PREFILL];
    if (options.structuredOutputs) declared.push(Capability.RESPONSE_FORMAT_JSON_SCHEMA);
    super(options, { providerName: 'anthropic', capabilities: declared });
  }

  /** Override to customise the SDK client. */
  protected createClient(options: AnthropicChatModelOptions): Anthropic {
    return new Anthropic(
      sdkClientOptions(options, {
        className: 'AnthropicChatModel',
        apiKeyEnv: 'ANTHROPIC_API_KEY',
        officialHost: 'api.anthropic.com',
      }),
    );
  }

  protected override async doChat(
    request: ChatRequest,
    options: ChatCallOptions,
  ): Promise<ChatResponse> {
    const model = this.modelFor(request);
    return this.callSdk(model, options.signal, async (signal) => {
      const { data: message, quota } = await this.withQuota(
        this.client.messages.create(
          { ...this.buildBody(request, model), stream: false },
          { ...this.requestOptions(signal), timeout: NON_STREAMING_SDK_TIMEOUT_MS },
        ),
      );
      const response = fromAnthropicMessage(message, model);
      return quota ? withRateLimit(response, quota) : response;
    });
  }

  protected openStream(
    request: ChatRequest,
    model: string,
    signal: AbortSignal | undefined,
  ): Promise<Response> {
    return this.client.messages
      .create({ ...this.buildBody(request, model), stream: true }, this.requestOptions(signal))
      .asResponse();
  }

  protected async *readStream(
    response: Response,
    model: string,
    errors: ProviderErrorContext,
    options: ChatCallOptions,
  ): AsyncGenerator<ChatStreamEvent> {
    const assembler = new AnthropicStreamAssembler(model);
    const guard = { errors, policy: this.malformedChunks, call: options };
    let stopped = false;
    try {
      if (!response.body) throw truncatedStream(errors, 'the response had no body');
      for await (const message of readSseMessages(response.body as AsyncIterable<Uint8Array>)) {
        const event = parseChunk(message.data, guard) as Record<string, unknown> | undefined;
        if (event === undefined || event === null || typeof event !== 'object') continue;
        if (event.type === 'error' || message.event === 'error')
          throw fromStreamErrorPayload(event.error, errors);
        if (event.type === 'message_stop') {
          stopped = true;
          break;
        }
        yield* assembler.push(event);
        // message_delta carries the stop reason with the final usage: nothing more is needed
        if (assembler.finished) break;
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
    });
  }
}

function validate(options: AnthropicChatModelOptions): void {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidConfigurationException(
      'AnthropicChatModel: options are required ({ model, apiKey })',
    );
  }
  const check = new OptionChecks(`AnthropicChatModel '${String(options.model)}'`);
  check.nonEmptyString('model', options.model);
  check.optionalString('apiKey', options.apiKey);
  check.optionalUrl('baseURL', options.baseURL);
  check.optionalHeaders('headers', options.headers);
  check.optionalPositiveNumber('timeout', options.timeout);
  check.optionalInteger('maxRetries', options.maxRetries, 0, 10);
  check.optionalString('providerName', options.providerName);
  check.optionalInteger('maxTokens', options.maxTokens, 1);
  check.optionalBoolean('structuredOutputs', options.structuredOutputs);
  check.optionalOneOf('malformedChunks', options.malformedChunks, MALFORMED_CHUNK_POLICIES);
}
