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
  /** The model whose answer the call is waiting for now, and when its attempt started. */
  current?: { model: string; at: number };
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
  constructor(@Inject(StatusWindow) private readonly window: StatusWindow) {}

  readonly hooks: ChatCallHooks = {
    start: (context) => {
      this.track(context);
    },
    end: (context, end) => this.onEnd(context, end),
  };

  intercept(context: ChatInterceptorContext, next: ChatCallHandler): Observable<ChatStreamEvent> {
    const track = this.track(context);
    let ended = false;
    const end = (outcome: ChatCallEnd) => {
      if (ended) return;
      ended = true;
      this.onEnd(context, outcome);
    };
    return next.handle().pipe(
      tap({
        next: (event) => {
          if (track.firstTokenMs === undefined) this.onStreamEvent(context, track, event);
        },
        complete: () => end({ outcome: 'ok' }),
        error: (error: unknown) => end({ outcome: 'error', error }),
        unsubscribe: () => end({ outcome: 'cancelled' }),
      }),
    );
  }

  private track(context: ChatInterceptorContext): CallTrack {
    const track: CallTrack = { decided: false, sawModelEvents: false };
    (context as Tracked)[TRACK] = track;
    context.observe((event) => this.onEvent(context, track, event));
    return track;
  }

  private onStreamEvent(
    context: ChatInterceptorContext,
    track: CallTrack,
    event: ChatStreamEvent,
  ): void {
    if (event.type !== 'text-delta' && event.type !== 'tool-call-delta') return;
    track.firstTokenMs = this.window.clock() - (track.current?.at ?? context.startedAt);
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
        track.current = { model: event.model, at: now };
        track.firstTokenMs = undefined;
        break;
      case 'model-succeeded':
        track.sawModelEvents = true;
        track.succeeded = {
          model: event.model,
          ...(route !== undefined ? { route } : {}),
          latencyMs: now - startOf(track, event.model, context),
        };
        break;
      case 'model-failed': {
        track.sawModelEvents = true;
        track.lastFailure = { model: event.model, error: event.error };
        if (!errorCountsAgainstModel(event.kind)) break;
        const key = { router, ...(route !== undefined ? { route } : {}), model: event.model };
        this.window.recordAttempt(key, {
          latencyMs: now - startOf(track, event.model, context),
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
    const track = (context as Tracked)[TRACK];
    (context as Tracked)[TRACK] = undefined;
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

const TRACK = Symbol('status-call-track');
/** The call's track rides on its context: cheaper than a WeakMap lookup on every call. */
type Tracked = ChatInterceptorContext & { [TRACK]?: CallTrack };

/** When the model's attempt started (the call's start when the group reported no call). */
function startOf(track: CallTrack, model: string, context: ChatInterceptorContext): number {
  return track.current?.model === model ? track.current.at : context.startedAt;
}

function summaryOf(error: unknown): ErrorSummary {
  return error instanceof Error
    ? { name: error.name, message: error.message }
    : { name: typeof error, message: String(error) };
}
