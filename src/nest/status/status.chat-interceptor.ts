import { Inject } from '@nestjs/common';
import { type Observable, tap } from 'rxjs';
import type { ChatStreamEvent } from '../../core/chat/chat-model.js';
import { totalTokensOf } from '../../core/chat/response.js';
import type { ErrorSummary } from '../../core/errors/error-summary.js';
import type { RoutingEvent } from '../../core/observability/routing-event.js';
import { classifyError } from '../../core/resilience/error-classification.js';
import type { ChatCallEnd, ChatCallHooks } from '../interceptors/chat-call-hooks.js';
import type { ChatCallHandler, ChatInterceptor } from '../interceptors/chat-interceptor.js';
import type { ChatInterceptorContext } from '../interceptors/chat-interceptor-context.js';
import { ChatInterceptorProvider } from '../interceptors/chat-interceptor-provider.decorator.js';
import { boundedError, errorCountsAgainstModel, StatusWindow } from './status-window.js';

/** What one call has shown so far: attempts in flight, the last failure, the first token. */
interface CallTrack {
  decided: boolean;
  /** Model → epoch ms its attempt started. */
  calledAt: Map<string, number>;
  /** The model whose answer the call is waiting for now. */
  current?: { model: string; route?: string };
  succeeded?: { model: string; route?: string; latencyMs: number };
  lastFailure?: { model: string; error: ErrorSummary };
  firstTokenMs?: number;
  sawModelEvents: boolean;
}

/**
 * Feeds the status page's window from every RoutingChatService call: the routing events for
 * attempts, failures, failovers and decisions; the end of the call for tokens and (streams) the
 * time to the first token. Discovered by ModelRouterModule (a `@ChatInterceptorProvider`).
 */
@ChatInterceptorProvider({ order: Number.MIN_SAFE_INTEGER + 1 })
export class StatusChatInterceptor implements ChatInterceptor {
  private readonly calls = new WeakMap<ChatInterceptorContext, CallTrack>();

  constructor(@Inject(StatusWindow) private readonly window: StatusWindow) {}

  readonly hooks: ChatCallHooks = {
    start: (context) => {
      const track: CallTrack = { decided: false, calledAt: new Map(), sawModelEvents: false };
      this.calls.set(context, track);
      context.observe((event) => this.onEvent(context, track, event));
    },
    end: (context, end) => this.onEnd(context, end),
  };

  intercept(context: ChatInterceptorContext, next: ChatCallHandler): Observable<ChatStreamEvent> {
    this.hooks.start!(context);
    let ended = false;
    const end = (outcome: ChatCallEnd) => {
      if (ended) return;
      ended = true;
      this.onEnd(context, outcome);
    };
    return next.handle().pipe(
      tap({
        next: (event) => this.onStreamEvent(context, event),
        complete: () => end({ outcome: 'ok' }),
        error: (error: unknown) => end({ outcome: 'error', error }),
        unsubscribe: () => end({ outcome: 'cancelled' }),
      }),
    );
  }

  private onStreamEvent(context: ChatInterceptorContext, event: ChatStreamEvent): void {
    const track = this.calls.get(context);
    if (!track || track.firstTokenMs !== undefined) return;
    if (event.type !== 'text-delta' && event.type !== 'tool-call-delta') return;
    const started = track.current ? track.calledAt.get(track.current.model) : undefined;
    track.firstTokenMs = this.window.clock() - (started ?? context.startedAt);
  }

  private onEvent(context: ChatInterceptorContext, track: CallTrack, event: RoutingEvent): void {
    const router = context.routerName;
    if (router === undefined) return;
    const now = this.window.clock();
    const route = ('route' in event ? event.route : undefined) ?? context.route;
    switch (event.type) {
      case 'route-selected':
        // the outermost decision names the call; a nested router's picks are its own detail
        if (!track.decided && event.sticky !== true)
          this.window.recordDecision(router, event.route);
        track.decided = true;
        break;
      case 'model-called':
        track.sawModelEvents = true;
        track.calledAt.set(event.model, now);
        track.current = { model: event.model, ...(route !== undefined ? { route } : {}) };
        track.firstTokenMs = undefined;
        break;
      case 'model-succeeded':
        track.sawModelEvents = true;
        track.succeeded = {
          model: event.model,
          ...(route !== undefined ? { route } : {}),
          latencyMs: now - (track.calledAt.get(event.model) ?? context.startedAt),
        };
        break;
      case 'model-failed': {
        track.sawModelEvents = true;
        track.lastFailure = { model: event.model, error: event.error };
        if (!errorCountsAgainstModel(event.kind)) break;
        const key = { router, ...(route !== undefined ? { route } : {}), model: event.model };
        this.window.recordAttempt(key, {
          latencyMs: now - (track.calledAt.get(event.model) ?? context.startedAt),
          ok: false,
        });
        this.window.recordError(key, event.error);
        break;
      }
      case 'failover': {
        const failure = track.lastFailure?.model === event.from ? track.lastFailure : undefined;
        const reason = failure ? boundedError(failure.error) : undefined;
        this.window.recordFailover({
          router,
          ...(route !== undefined ? { route } : {}),
          from: event.from,
          to: event.to,
          reason: reason ? `${reason.type}: ${reason.message}` : 'failed',
        });
        break;
      }
      case 'cooldown-started':
        if (event.error) {
          this.window.recordError(
            { router, ...(route !== undefined ? { route } : {}), model: event.model },
            event.error,
          );
        }
        break;
      default:
        break;
    }
  }

  private onEnd(context: ChatInterceptorContext, end: ChatCallEnd): void {
    const track = this.calls.get(context);
    this.calls.delete(context);
    const router = context.routerName;
    if (!track || router === undefined) return;
    const tokens = end.outcome === 'ok' ? totalTokensOf(context.response?.tokenUsage) : 0;
    const firstToken =
      context.mode === 'stream' && track.firstTokenMs !== undefined
        ? { firstTokenMs: track.firstTokenMs }
        : {};
    if (track.succeeded) {
      const { model, route, latencyMs } = track.succeeded;
      this.window.recordAttempt(
        { router, ...(route !== undefined ? { route } : {}), model },
        { latencyMs, ok: true, tokens, ...firstToken },
      );
      return;
    }
    if (track.sawModelEvents) return;
    // a route served by one model alone, or a router that is one model: the call is the attempt
    const model = context.servedBy().model;
    if (model === undefined || end.outcome === 'cancelled') return;
    const route = context.route;
    const key = { router, ...(route !== undefined ? { route } : {}), model };
    const latencyMs = context.elapsedMs();
    if (end.outcome === 'ok') {
      this.window.recordAttempt(key, { latencyMs, ok: true, tokens, ...firstToken });
      return;
    }
    const kind = classifyError(end.error, context.signal);
    if (!errorCountsAgainstModel(kind)) return;
    this.window.recordAttempt(key, { latencyMs, ok: false });
    this.window.recordError(key, summaryOf(end.error));
  }
}

function summaryOf(error: unknown): ErrorSummary {
  return error instanceof Error
    ? { name: error.name, message: error.message }
    : { name: typeof error, message: String(error) };
}
