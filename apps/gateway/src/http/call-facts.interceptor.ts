import { performance } from 'node:perf_hooks';
import { type Observable, tap, throwError } from 'rxjs';
import {
  type ChatCallHooks,
  type ChatCallHandler,
  type ChatInterceptor,
  type ChatInterceptorContext,
  type ChatResponse,
  type ChatStreamEvent,
  type TokenUsage,
  httpRequestOfCall,
} from 'nest-model-router';
import { totalTokensOf } from 'nest-model-router/core';
import { keyOf } from '../auth/request-key.js';
import { KEY_ATTRIBUTE, type KeyBudgets } from '../limits/key-budgets.js';
import { CALLER_ATTRIBUTE } from 'nest-model-router/core';

/** What the access log and the per-key limits learn of the call an HTTP request made. */
export interface CallFacts {
  /** A chat call's record: who served it (route, model) and its response (tokens). */
  record?: ChatInterceptorContext;
  /** A call that makes no chat record (an embedding): the model that served it, its tokens. */
  served?: { model: string; tokenUsage: TokenUsage };
  /** `performance.now()` when the first answer event (text or tool call) was emitted. */
  firstEventAt?: number;
  /** What the answer cost, when its model has a price. */
  costUsd?: number;
}

const facts = new WeakMap<object, CallFacts>();

/** What a call's start learned, for its end. */
interface CallNotes {
  request: object;
  fact: CallFacts;
}

/** The latest call of a request (keyed by the framework's request object). */
export function callFactsOf(request: object): CallFacts | undefined {
  return facts.get(request);
}

/** Notes a call that made no chat record (an embedding) for the request's access log line. */
export function noteServed(request: object, model: string, tokenUsage: TokenUsage): void {
  facts.set(request, { served: { model, tokenUsage } });
}

/**
 * A chat interceptor of the gateway: links the call's record to its HTTP request (through the
 * request's RequestRoutingScope, which knows the framework's request object), notes when the
 * first event went out (time to first token), and reports the answer's tokens to `onTokens`
 * (the key's `tpm` window). Nothing is recomputed: route and model stay in the record. It also
 * names the caller's key in the call's attributes, so the library's budgets scoped by `key`
 * apply: to routers' groups and to models addressed directly alike (RoutingChatService checks
 * and charges those).
 */
export class CallFactsInterceptor implements ChatInterceptor {
  constructor(
    private readonly onTokens: (request: object, tokens: number) => void,
    private readonly budgets?: KeyBudgets,
  ) {}

  private readonly notes = new WeakMap<ChatInterceptorContext, CallNotes>();

  /**
   * The same work as `intercept`, as hooks: a `chat()` call then runs without an Observable
   * chain (the library's built-in interceptors have hooks too). `intercept` is built on them.
   */
  readonly hooks: ChatCallHooks = {
    start: (context) => {
      const request = httpRequestOfCall(context);
      if (request === undefined) return;
      const fact: CallFacts = { record: context };
      facts.set(request, fact);
      const key = keyOf(request)?.name;
      if (key !== undefined) {
        context.attributes[KEY_ATTRIBUTE] = key;
        // a decision router records who made the call: only that key may give feedback on it
        context.attributes[CALLER_ATTRIBUTE] = key;
      }
      this.notes.set(context, { request, fact });
    },
    end: (context, end) => {
      const notes = this.notes.get(context);
      if (notes === undefined) return;
      if (end.outcome === 'ok' && context.response)
        this.completed(context, notes, context.response);
      else if (end.outcome !== 'ok') this.unanswered(context, notes, end.outcome === 'cancelled');
    },
  };

  intercept(context: ChatInterceptorContext, next: ChatCallHandler): Observable<ChatStreamEvent> {
    try {
      this.hooks.start!(context);
    } catch (error) {
      return throwError(() => error);
    }
    const notes = this.notes.get(context);
    if (notes === undefined) return next.handle();
    let ended = false;
    return next.handle().pipe(
      tap({
        next: (event) => {
          if (event.type !== 'complete') {
            notes.fact.firstEventAt ??= performance.now();
            return;
          }
          ended = true;
          this.completed(context, notes, event.response);
        },
        // a stream cut short (an error, a client gone) still used tokens: they are counted too
        error: () => {
          if (!ended) this.unanswered(context, notes, context.signal.aborted);
          ended = true;
        },
        unsubscribe: () => {
          if (!ended) this.unanswered(context, notes, true);
          ended = true;
        },
      }),
    );
  }

  /**
   * A call that ended without its answer: what it used so far (the library's estimate from the
   * prompt and the output streamed) goes to the key's tpm window and, for a directly addressed
   * model, to the key's budgets.
   */
  private unanswered(context: ChatInterceptorContext, notes: CallNotes, cancelled: boolean): void {
    const usage = context.usage(cancelled);
    if (usage === undefined) return;
    this.completed(context, notes, { aiMessage: { role: 'assistant' }, tokenUsage: usage });
  }

  private completed(
    context: ChatInterceptorContext,
    { request, fact }: CallNotes,
    response: ChatResponse,
  ): void {
    const tokens = totalTokensOf(response.tokenUsage);
    if (tokens > 0) this.onTokens(request, tokens);
    const cost = this.budgets?.priceOf(context.model ?? context.target, response);
    if (cost !== undefined) fact.costUsd = cost;
  }
}
