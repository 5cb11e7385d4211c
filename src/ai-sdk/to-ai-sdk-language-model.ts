import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3FinishReason,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
  LanguageModelV3Usage,
} from '@ai-sdk/provider';
import type { ChatModel, ChatStreamEvent } from '../core/chat/chat-model.js';
import type { ChatResponse, FinishReason, TokenUsage } from '../core/chat/response.js';
import { throwIfAborted } from '../core/chat/abort.js';
import { streamModel } from '../core/chat/stream.js';
import { fromCallOptions } from './from-call-options.js';
import type { AiSdkLanguageModelV3 } from './language-model-shapes.js';

export interface ToAiSdkLanguageModelOptions {
  /** What `modelId` says (and `response.modelId` when the answer names no model); default `nest-model-router`. */
  modelId?: string;
  /** What `provider` says; default `nest-model-router`. */
  provider?: string;
}

const UNIFIED: Record<FinishReason, LanguageModelV3FinishReason['unified']> = {
  stop: 'stop',
  length: 'length',
  tool_calls: 'tool-calls',
  content_filter: 'content-filter',
  other: 'other',
};

/**
 * Any ChatModel (a provider model, a `ModelRouter`, a `RoutingChatModel`, the module's router)
 * as an AI SDK language model (specification v3) that `generateText`, `streamText` and the rest of
 * `ai@6` accept. Routing, failover and budgets happen inside `chat` / `stream`; the AI SDK sees one
 * model. Media given as URLs reach the ChatModel as URLs (nothing is downloaded here).
 */
export function toAiSdkLanguageModel(
  chatModel: ChatModel,
  options: ToAiSdkLanguageModelOptions = {},
): AiSdkLanguageModelV3 {
  const modelId = options.modelId ?? 'nest-model-router';
  const model: LanguageModelV3 = {
    specificationVersion: 'v3',
    provider: options.provider ?? 'nest-model-router',
    modelId,
    supportedUrls: { '*/*': [/^https?:\/\//] },
    async doGenerate(callOptions) {
      throwIfAborted(callOptions.abortSignal);
      const { request, warnings } = fromCallOptions(callOptions);
      const response = await chatModel.chat(request, signalOf(callOptions));
      return generateResult(response, modelId, warnings);
    },
    async doStream(callOptions) {
      throwIfAborted(callOptions.abortSignal);
      const { request, warnings } = fromCallOptions(callOptions);
      const events = streamModel(chatModel, request, signalOf(callOptions))[Symbol.asyncIterator]();
      // the first event is awaited here, so a call that fails before answering rejects doStream
      // (as a provider's HTTP error does) rather than surfacing as an error part
      const first = await events.next();
      return { stream: partsStream(events, first, modelId, warnings) };
    },
  };
  return model;
}

function signalOf(callOptions: LanguageModelV3CallOptions): { signal?: AbortSignal } {
  return callOptions.abortSignal ? { signal: callOptions.abortSignal } : {};
}

function generateResult(
  response: ChatResponse,
  modelId: string,
  warnings: LanguageModelV3GenerateResult['warnings'],
): LanguageModelV3GenerateResult {
  const content: LanguageModelV3Content[] = [];
  if (response.aiMessage.text) content.push({ type: 'text', text: response.aiMessage.text });
  for (const call of response.aiMessage.toolCalls ?? []) {
    content.push({
      type: 'tool-call',
      toolCallId: call.id,
      toolName: call.name,
      input: call.arguments,
    });
  }
  return {
    content,
    finishReason: finishReasonOf(response),
    usage: usageOf(response.tokenUsage),
    response: {
      modelId: response.modelName ?? modelId,
      ...(response.id === undefined ? {} : { id: response.id }),
    },
    warnings,
  };
}

function finishReasonOf(response: ChatResponse): LanguageModelV3FinishReason {
  const reason =
    response.finishReason ?? (response.aiMessage.toolCalls?.length ? 'tool_calls' : 'stop');
  return { unified: UNIFIED[reason] ?? 'other', raw: response.finishReason };
}

function usageOf(usage: TokenUsage | undefined): LanguageModelV3Usage {
  return {
    inputTokens: {
      total: usage?.inputTokens,
      noCache: undefined,
      cacheRead: undefined,
      cacheWrite: undefined,
    },
    outputTokens: { total: usage?.outputTokens, text: undefined, reasoning: undefined },
  };
}

/**
 * Our events as the AI SDK's stream parts: text between `text-start` and `text-end`, streamed
 * tool arguments between `tool-input-start` and `tool-input-end` (then the whole `tool-call`),
 * and `response-metadata` and `finish` from the final response. A failure after the first event
 * becomes an `error` part; cancelling the stream stops the ChatModel's stream.
 */
function partsStream(
  events: AsyncIterator<ChatStreamEvent>,
  first: IteratorResult<ChatStreamEvent>,
  modelId: string,
  warnings: LanguageModelV3GenerateResult['warnings'],
): LanguageModelV3StreamResult['stream'] {
  let pending: IteratorResult<ChatStreamEvent> | undefined = first;
  let textOpen = false;
  const toolInputs = new Map<number, string>();
  const closeText = (controller: ReadableStreamDefaultController<LanguageModelV3StreamPart>) => {
    if (textOpen) controller.enqueue({ type: 'text-end', id: 'text' });
    textOpen = false;
  };
  return new ReadableStream<LanguageModelV3StreamPart>({
    start(controller) {
      controller.enqueue({ type: 'stream-start', warnings });
    },
    async pull(controller) {
      try {
        const next = pending ?? (await events.next());
        pending = undefined;
        if (next.done) {
          controller.close();
          return;
        }
        const event = next.value;
        switch (event.type) {
          case 'text-delta':
            if (!textOpen) controller.enqueue({ type: 'text-start', id: 'text' });
            textOpen = true;
            controller.enqueue({ type: 'text-delta', id: 'text', delta: event.text });
            break;
          case 'tool-call-delta': {
            let id = toolInputs.get(event.index);
            if (id === undefined) {
              id = event.id ?? `call-${event.index}`;
              toolInputs.set(event.index, id);
              closeText(controller);
              controller.enqueue({ type: 'tool-input-start', id, toolName: event.name ?? '' });
            }
            controller.enqueue({ type: 'tool-input-delta', id, delta: event.argumentsDelta });
            break;
          }
          case 'tool-call': {
            closeText(controller);
            const { toolCall } = event;
            const streamed = [...toolInputs.entries()].find(([, id]) => id === toolCall.id);
            if (streamed) {
              controller.enqueue({ type: 'tool-input-end', id: toolCall.id });
              toolInputs.delete(streamed[0]);
            }
            controller.enqueue({
              type: 'tool-call',
              toolCallId: toolCall.id,
              toolName: toolCall.name,
              input: toolCall.arguments,
            });
            break;
          }
          case 'complete': {
            closeText(controller);
            const { response } = event;
            controller.enqueue({
              type: 'response-metadata',
              modelId: response.modelName ?? modelId,
              ...(response.id === undefined ? {} : { id: response.id }),
            });
            controller.enqueue({
              type: 'finish',
              finishReason: finishReasonOf(response),
              usage: usageOf(response.tokenUsage),
            });
            break;
          }
        }
      } catch (error) {
        controller.enqueue({ type: 'error', error });
        controller.close();
      }
    },
    async cancel() {
      await events.return?.();
    },
  });
}
