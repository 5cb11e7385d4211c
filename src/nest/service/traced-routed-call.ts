import { costAttributeOf } from '../../core/cost/cost.js';
import type { ChatStreamEvent } from '../../core/chat/chat-model.js';
import type { ChatResponse } from '../../core/chat/response.js';
import {
  routingTracer,
  type RoutedCallFacts,
  type TraceCarrier,
} from '../../core/observability/tracing.js';
import { httpRequestOfCall } from '../http/request-routing-scope.js';
import type { ChatInterceptorContext } from '../interceptors/chat-interceptor-context.js';

/**
 * The response cache's verdict for the call (`hit`, `semantic-hit`, `miss`, `bypass`), for the
 * call span's `model_router.cache`: read from the call record's `cache` field once the cache sets
 * one; undefined (no attribute) until then.
 */
export function cacheVerdictOf(context: ChatInterceptorContext): string | undefined {
  const verdict = (context as { cache?: unknown }).cache;
  if (typeof verdict === 'string') return verdict;
  const nested = (verdict as { verdict?: unknown } | undefined)?.verdict;
  return typeof nested === 'string' ? nested : undefined;
}

/** The routing facts of a call, from its record (read once, when the call span ends). */
export function routedCallFacts(context: ChatInterceptorContext): RoutedCallFacts {
  const facts: RoutedCallFacts = {};
  if (context.routerName !== undefined) facts.router = context.routerName;
  if (context.route !== undefined) facts.route = context.route;
  if (context.probability !== undefined) facts.routeProbability = context.probability;
  if (context.model !== undefined) facts.model = context.model;
  const cost = costAttributeOf(context.response);
  if (cost !== undefined) facts.costUsd = cost;
  const cache = cacheVerdictOf(context);
  if (cache !== undefined) facts.cache = cache;
  return facts;
}

/** The headers of the HTTP request the call serves: where the caller's `traceparent` is. */
function carrierOf(context: ChatInterceptorContext): TraceCarrier | undefined {
  const headers = (httpRequestOfCall(context) as { headers?: unknown } | undefined)?.headers;
  return typeof headers === 'object' && headers !== null ? (headers as TraceCarrier) : undefined;
}

/** A routed chat call, as one call span when a tracer is installed. */
export function tracedRoutedChat(
  context: ChatInterceptorContext,
  call: () => Promise<ChatResponse>,
): Promise<ChatResponse> {
  const tracer = routingTracer();
  if (tracer === undefined) return call();
  return tracer.routedCall(carrierOf(context), call, () => routedCallFacts(context));
}

/** A routed stream, as one call span (ended with the stream) when a tracer is installed. */
export function tracedRoutedStream(
  context: ChatInterceptorContext,
  open: () => AsyncIterable<ChatStreamEvent>,
): () => AsyncIterable<ChatStreamEvent> {
  const tracer = routingTracer();
  if (tracer === undefined) return open;
  return () => tracer.routedStream(carrierOf(context), open, () => routedCallFacts(context));
}
