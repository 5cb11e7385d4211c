import type { Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import {
  type ChatInterceptorContext,
  type ChatRequest,
  type ChatStreamEvent,
  currentCall,
  type RoutingChatOptions,
  type RoutingChatService,
} from 'nest-model-router';
import { logSafe } from 'nest-model-router/core';
import { toWireError, type WireError } from '../openai/openai-error.js';
import type { SecretRedactor } from './config-secrets.js';
import { EventStream, type SseMessage } from './event-stream.js';
import { SHUTDOWN_ERROR, type ShutdownGrace } from './shutdown-grace.js';
import type { StreamBackpressure } from './stream-backpressure.js';

/** A surface's stream format: its events for each chat event, and its way of failing. */
export interface StreamEncoder {
  encode(event: ChatStreamEvent): SseMessage[];
  /** The error event(s) that end an unfinished stream, from the error table's answer. */
  fail(error: WireError): SseMessage[];
  /** What ends a complete stream after its last event (OpenAI's `[DONE]`); default nothing. */
  done?(): SseMessage[];
}

const SHUTTING_DOWN: WireError = { status: 503, headers: {}, body: SHUTDOWN_ERROR };

/**
 * Streams a routed call as named SSE events. Headers go out with the first event, when the route
 * is known: an error before that (bad model, every model cooling down) is still an ordinary JSON
 * error with its status, thrown to the exception filter. After that, a failure ends the stream
 * with the surface's error event and never with its success event. A client that does not read
 * holds the router back (see StreamBackpressure), and is dropped once it read nothing too long.
 */
export function streamReply(
  service: RoutingChatService,
  request: ChatRequest,
  options: RoutingChatOptions,
  reply: FastifyReply,
  makeEncoder: (record: () => ChatInterceptorContext | undefined) => StreamEncoder,
  logger: Logger,
  shutdown: ShutdownGrace,
  redactor: SecretRedactor,
  backpressure: StreamBackpressure,
): Promise<void> {
  const sse = new EventStream(reply.raw);
  // the call's record: the service attaches it to this request when the stream is subscribed
  let record: ChatInterceptorContext | undefined;
  const encoder = makeEncoder(() => record);
  return new Promise<void>((resolve, reject) => {
    let started = false;
    let ended = false;
    let untrack: (() => void) | undefined;
    const fail = (error: unknown): void => {
      ended = true;
      if (!started) {
        reject(error);
        return;
      }
      // the client left (its disconnect aborted the call): no one to tell, nothing failed
      if (!sse.open) {
        resolve();
        return;
      }
      // the provider's message stays; the configuration's secrets never leave
      const wire = redactor.redactWire(toWireError(error));
      logger.warn(logSafe(`stream ended early: ${wire.body.error.message}`));
      sse.end(encoder.fail(wire));
      resolve();
    };
    // the router's next event is read only once the client took the last ones
    const flow = backpressure.flowOf(reply.raw);
    const subscription = service.stream(request, { ...options, flow }).subscribe({
      next: (event) => {
        if (ended) return;
        try {
          const messages = encoder.encode(event);
          // an event kept for a later message (input tokens before the answer): headers wait, so
          // a failover before the first output still answers as the model that serves it
          if (messages.length === 0) return;
          if (!started) {
            sse.start(reply.getHeaders());
            reply.hijack();
            started = true;
            // a shutdown that outlasts its grace ends this stream with the surface's error event
            untrack = shutdown.track({
              fail: () => {
                ended = true;
                sse.end(encoder.fail(SHUTTING_DOWN));
              },
            });
          }
          sse.send(messages);
        } catch (error) {
          // thrown from here, rxjs would rethrow it on a timer and crash the process
          fail(error);
          queueMicrotask(() => subscription.unsubscribe());
        }
      },
      error: (error: unknown) => {
        if (!ended) fail(error);
      },
      complete: () => {
        if (ended) return;
        ended = true;
        sse.end(encoder.done?.() ?? []);
        resolve();
      },
    });
    record = options.scope?.call ?? currentCall();
    // one listener for the response's end: the stream's call, and its shutdown tracking
    reply.raw.once('close', () => {
      untrack?.();
      subscription.unsubscribe();
      resolve();
    });
  });
}
