import type { ChatInterceptorContext, ChatResponse, RoutingChatOptions } from 'nest-model-router';
import type { ToolCallOrigin } from '../openai/tool-call-ids.js';

/** Who answered: `model` is what the client sees; `origin` goes into tool call ids. */
export interface AnsweredBy {
  model: string;
  origin: ToolCallOrigin;
}

/** The model that answered (or is answering), from the call's record. */
export function answeredBy(
  record: ChatInterceptorContext | undefined,
  options: RoutingChatOptions,
  response?: ChatResponse,
): AnsweredBy {
  const { route, model } = record?.servedBy() ?? {};
  const named = typeof options.model === 'string' ? options.model : options.model?.name;
  return {
    model: model ?? response?.modelName ?? named ?? options.router ?? 'unknown',
    origin: { ...(route ? { route } : {}), ...(model ? { model } : {}) },
  };
}
