import type { FastifyReply } from 'fastify';
import {
  currentCall,
  type ChatInterceptorContext,
  type ChatResponse,
  type RoutingChatOptions,
} from 'nest-model-router';
import type { ModelResolver } from '../models/model-resolver.js';
import { costHeader } from '../openai/to-chat-completion.js';
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
  // read for every chunk of a stream: one object, no spreads
  const origin: ToolCallOrigin = {};
  if (route) origin.route = route;
  if (model) origin.model = model;
  return { model: model ?? response?.modelName ?? named ?? options.router ?? 'unknown', origin };
}

/**
 * Who answered a plain (non-streamed) call and what it cost, read from the call's record; sets
 * `x-model-router-cost` when the serving model has pricing. Every surface answers with it.
 */
export function settleAnswer(
  reply: FastifyReply,
  resolver: ModelResolver,
  options: RoutingChatOptions,
  response: ChatResponse,
  requested: string,
): { by: AnsweredBy; cost: number | undefined } {
  const by = answeredBy(options.scope?.call ?? currentCall(), options, response);
  const cost = resolver.costOf(by.origin.model ?? requested, response);
  if (cost !== undefined) reply.header('x-model-router-cost', costHeader(cost));
  return { by, cost };
}
