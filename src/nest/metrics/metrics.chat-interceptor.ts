import { Inject, Logger } from '@nestjs/common';
import { type Observable, tap } from 'rxjs';
import type { ChatStreamEvent } from '../../core/chat/chat-model.js';
import { logSafe } from '../../core/observability/log-safe.js';
import { costAttributeOf } from '../../core/cost/cost.js';
import type { ChatCallHooks } from '../interceptors/chat-call-hooks.js';
import type { ChatCallHandler, ChatInterceptor } from '../interceptors/chat-interceptor.js';
import type { ChatInterceptorContext } from '../interceptors/chat-interceptor-context.js';
import { ChatInterceptorProvider } from '../interceptors/chat-interceptor-provider.decorator.js';
import { type CallOutcome, outcomeOfError } from './metric-labels.js';
import { ModelRouterMetrics } from './model-router-metrics.js';

/**
 * Records every RoutingChatService call in ModelRouterMetrics. Discovered by ModelRouterModule
 * (it is a `@ChatInterceptorProvider`), first among the discovered interceptors, so it measures
 * the router call as the built-in interceptors see it; interceptors given in
 * `ModelRouterModule` options run outside it.
 */
@ChatInterceptorProvider({ order: Number.MIN_SAFE_INTEGER })
export class MetricsChatInterceptor implements ChatInterceptor {
  protected readonly logger = new Logger('MetricsChatInterceptor');

  constructor(@Inject(ModelRouterMetrics) protected readonly metrics: ModelRouterMetrics) {}

  readonly hooks: ChatCallHooks = {
    start: (context) =>
      context.observe((event) =>
        this.metrics.recordEvent(context.routerName, context.route, event),
      ),
    end: (context, end) =>
      this.record(
        context,
        end.outcome === 'error' ? outcomeOfError(end.error, context.signal) : end.outcome,
      ),
  };

  intercept(context: ChatInterceptorContext, next: ChatCallHandler): Observable<ChatStreamEvent> {
    this.hooks.start!(context);
    let finished = false;
    const finish = (outcome: CallOutcome) => {
      if (finished) return;
      finished = true;
      this.record(context, outcome);
    };
    return next.handle().pipe(
      tap({
        complete: () => finish('ok'),
        error: (error: unknown) => finish(outcomeOfError(error, context.signal)),
        unsubscribe: () => finish('cancelled'),
      }),
    );
  }

  protected record(context: ChatInterceptorContext, outcome: CallOutcome): void {
    try {
      this.metrics.recordCall({
        router: context.routerName,
        route: context.route,
        // what the call addressed: a model (or ad-hoc list) by name, else the model that answered,
        // else, for a call its caller left, the model that was answering it
        model:
          context.target ??
          context.model ??
          (outcome === 'cancelled' ? context.answering : undefined),
        outcome,
        // the timing interceptor sets durationMs outside this one: read the clock directly
        durationMs: context.durationMs ?? context.elapsedMs(),
        tokenUsage: outcome === 'ok' ? context.response?.tokenUsage : undefined,
        costUsd: outcome === 'ok' ? costAttributeOf(context.response) : undefined,
        ...(context.cache !== undefined ? { cache: context.cache } : {}),
        ...(context.cacheSavedUsd !== undefined ? { cacheSavedUsd: context.cacheSavedUsd } : {}),
      });
    } catch (error) {
      // metrics watch calls; they never change a call's outcome
      this.logger.warn(
        logSafe(
          `Could not record a chat call in the metrics: ${error instanceof Error ? error.name : typeof error}`,
        ),
      );
    }
  }
}
