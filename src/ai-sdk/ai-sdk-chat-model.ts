import type { LanguageModelV2, LanguageModelV3 } from '@ai-sdk/provider';
import { BaseChatModel, type BaseChatModelOptions } from '../core/chat/base-chat-model.js';
import { Capability } from '../core/chat/capability.js';
import type { ChatCallOptions, ChatStreamEvent } from '../core/chat/chat-model.js';
import type { ChatRequest } from '../core/chat/request.js';
import type { ChatResponse } from '../core/chat/response.js';
import { withEstimatedUsage } from '../core/cost/usage-estimate.js';
import { InvalidConfigurationException } from '../core/errors/exceptions.js';
import { ProviderException } from '../core/errors/provider-exception.js';
import {
  fromStreamErrorPart,
  toProviderException,
  type AiSdkErrorContext,
} from './ai-sdk-errors.js';
import { toChatResponse, type AiSdkGenerateResult } from './from-ai-sdk-result.js';
import { StreamPartError, StreamPartsAssembler, type AiSdkStreamPart } from './stream-parts.js';
import { toCallOptions } from './to-call-options.js';
import type { AiSdkLanguageModel } from './language-model-shapes.js';

/** What the providers of `ai@5` and `ai@6` return. */
type LanguageModel = LanguageModelV3 | LanguageModelV2;

export interface AiSdkChatModelOptions extends BaseChatModelOptions {
  /** The model's name in errors and events; default `<provider>/<modelId>`. */
  name?: string;
}

/**
 * Any AI SDK language model (Bedrock, Vertex, Azure, Mistral, Groq… through their `@ai-sdk/*`
 * providers) as a ChatModel, so it can stand in a route, a model group or the module's `models`.
 * Calls `doGenerate` / `doStream` directly (no `ai` runtime, no AI SDK retries: retrying and
 * failover are this library's). Errors become `ProviderException`s of the same kinds as the
 * built-in providers' (see `toProviderException`); the caller's abort comes back as its reason.
 */
export class AiSdkChatModel extends BaseChatModel {
  readonly name: string;
  private readonly model: LanguageModel;

  constructor(languageModel: AiSdkLanguageModel, options: AiSdkChatModelOptions = {}) {
    if (
      typeof languageModel !== 'object' ||
      languageModel === null ||
      typeof languageModel.doGenerate !== 'function' ||
      typeof languageModel.doStream !== 'function'
    ) {
      throw new InvalidConfigurationException(
        'AiSdkChatModel: languageModel must be an AI SDK language model (with doGenerate and doStream)',
      );
    }
    if (options.name !== undefined && (typeof options.name !== 'string' || options.name === '')) {
      throw new InvalidConfigurationException('AiSdkChatModel: name must be a non-empty string');
    }
    super({
      ...options,
      // the AI SDK passes a JSON schema to every provider; one that cannot honour it warns
      capabilities: options.capabilities ?? [Capability.RESPONSE_FORMAT_JSON_SCHEMA],
    });
    this.model = languageModel as LanguageModel;
    this.name = options.name ?? `${languageModel.provider}/${languageModel.modelId}`;
  }

  protected async doChat(request: ChatRequest, options: ChatCallOptions): Promise<ChatResponse> {
    const errors = this.errorContext(options.signal);
    // outside the try: a request that cannot be mapped is the caller's error, not the model's
    const callOptions = toCallOptions(request, options.signal);
    let result: AiSdkGenerateResult;
    try {
      result = (await this.model.doGenerate(callOptions as never)) as AiSdkGenerateResult;
    } catch (error) {
      throw toProviderException(error, errors);
    }
    // an AI SDK model may report no usage (`undefined` counts): estimated, so budgets count it
    return withEstimatedUsage(request, toChatResponse(result, this.model.modelId));
  }

  protected override async *doStream(
    request: ChatRequest,
    options: ChatCallOptions,
  ): AsyncGenerator<ChatStreamEvent> {
    const errors = this.errorContext(options.signal);
    const callOptions = toCallOptions(request, options.signal);
    let reader: ReadableStreamDefaultReader<AiSdkStreamPart>;
    try {
      const { stream } = await this.model.doStream(callOptions as never);
      reader = (stream as ReadableStream<AiSdkStreamPart>).getReader();
    } catch (error) {
      throw toProviderException(error, errors);
    }
    const assembler = new StreamPartsAssembler(this.model.modelId);
    let done = false;
    try {
      while (true) {
        let event: ChatStreamEvent | undefined;
        try {
          const next = await reader.read();
          if (next.done) break;
          event = assembler.push(next.value);
        } catch (error) {
          throw error instanceof StreamPartError
            ? fromStreamErrorPart(error.error, errors)
            : toProviderException(error, errors);
        }
        if (event) yield event;
      }
      if (!assembler.finished) {
        throw new ProviderException(
          `${errors.provider} model '${errors.model}' failed: the stream ended without a finish`,
          {
            kind: 'transient',
            provider: errors.provider,
            model: errors.model,
            code: 'stream_truncated',
          },
        );
      }
      done = true;
      const complete = assembler.complete();
      yield complete.type === 'complete'
        ? { type: 'complete', response: withEstimatedUsage(request, complete.response) }
        : complete;
    } finally {
      // a consumer that stops early (or an error) releases the provider's stream and connection
      if (!done) void reader.cancel().catch(() => undefined);
    }
  }

  private errorContext(signal: AbortSignal | undefined): AiSdkErrorContext {
    return { provider: this.model.provider, model: this.name, signal };
  }
}
