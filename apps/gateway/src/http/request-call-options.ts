import type { FastifyReply } from 'fastify';
import { openRoutingScope, type RoutingChatOptions } from 'nest-model-router';
import { accessOf } from '../auth/key-access.js';
import { keyOf } from '../auth/request-key.js';
import type { ModelResolver } from '../models/model-resolver.js';
import { abortOnDisconnect } from './client-disconnect.js';
import { sessionPinsOf } from './session-pins.js';

/**
 * The options of a request's call: its target (a router or a model: `target()`, resolved after
 * the session header is checked, as the interceptor checked it first), the request's routing
 * scope handed to the service (the `x-model-router-session` header is its session, the route
 * and model headers are written on the reply as soon as they are known), and the signal of the
 * client's disconnect. The scope is passed, not set by ModelRoutingInterceptor, so no
 * AsyncLocalStorage runs: on Node 20 it puts hooks on every promise of the process.
 */
export function requestCallOptions(
  reply: FastifyReply,
  target: () => Pick<RoutingChatOptions, 'router' | 'model'>,
): RoutingChatOptions {
  const pins = sessionPinsOf(reply.server);
  const scope = openRoutingScope(
    reply.request,
    {
      // as Nest's FastifyAdapter tells it: ended or hijacked, or flushed through reply.raw
      isHeadersSent: () => reply.sent || reply.raw.headersSent,
      setHeader: (name, value) => void reply.header(name, value),
    },
    undefined,
    // pinned per key, and boundedly many per key
    (session) => pins.admit(keyOf(reply.request)?.name, session),
  );
  return { ...target(), scope, signal: abortOnDisconnect(reply.raw) };
}

/**
 * The call options of a request that names its target in the body (`model`, and a failover list
 * in `models`), resolved within the caller's key scope: a name outside it is a 403.
 */
export function addressedCallOptions(
  reply: FastifyReply,
  resolver: ModelResolver,
  body: { model: string; models?: readonly string[] | null },
): RoutingChatOptions {
  return requestCallOptions(reply, () =>
    resolver.resolve(body.model, body.models, accessOf(reply.request)),
  );
}
