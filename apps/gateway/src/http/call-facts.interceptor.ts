import { performance } from 'node:perf_hooks';
import { type Observable, tap, throwError } from 'rxjs';
import {
  type ChatCallHandler,
  type ChatInterceptor,
  type ChatInterceptorContext,
  type ChatStreamEvent,
  currentRoutingScope,
} from 'nest-model-router';
import { keyOf } from '../auth/request-key.js';
import { KEY_ATTRIBUTE, type KeyBudgets } from '../limits/key-budgets.js';

/** What the access log and the per-key limits learn of the chat call an HTTP request made. */
export interface CallFacts {
  /** The call's record: who served it (route, model) and its response (tokens). */
  record: ChatInterceptorContext;
  /** `performance.now()` when the first answer event (text or tool call) was emitted. */
  firstEventAt?: number;
  /** What the answer cost, when its model has a price. */
  costUsd?: number;
}

const facts = new WeakMap<object, CallFacts>();

/** The latest call of a request (keyed by the framework's request object). */
export function callFactsOf(request: object): CallFacts | undefined {
  return facts.get(request);
}

/**
 * A chat interceptor of the gateway: links the call's record to its HTTP request (through the
 * request's RequestRoutingScope, which knows the framework's request object), notes when the
 * first event went out (time to first token), and reports the answer's tokens to `onTokens`
 * (the key's `tpm` window). Nothing is recomputed: route and model stay in the record. It also
 * names the caller's key in the call's attributes, so the library's budgets scoped by `key`
 * apply, and checks and charges those budgets for calls that no configured group serves.
 */
export class CallFactsInterceptor implements ChatInterceptor {
  constructor(
    private readonly onTokens: (request: object, tokens: number) => void,
    private readonly budgets?: KeyBudgets,
  ) {}

  intercept(context: ChatInterceptorContext, next: ChatCallHandler): Observable<ChatStreamEvent> {
    const request = currentRoutingScope()?.request;
    if (request === undefined) return next.handle();
    const fact: CallFacts = { record: context };
    facts.set(request, fact);
    const key = keyOf(request)?.name;
    if (key !== undefined) context.attributes[KEY_ATTRIBUTE] = key;
    // a router's groups check and charge budgets themselves; a model addressed directly does not
    const direct = key !== undefined && this.budgets ? context.target : undefined;
    if (direct !== undefined) {
      try {
        this.budgets!.assertWithin(key!, direct);
      } catch (error) {
        return throwError(() => error);
      }
    }
    return next.handle().pipe(
      tap((event) => {
        if (event.type !== 'complete') {
          fact.firstEventAt ??= performance.now();
          return;
        }
        const usage = event.response.tokenUsage;
        const tokens = usage?.totalTokens ?? (usage?.inputTokens ?? 0) + (usage?.outputTokens ?? 0);
        if (tokens > 0) this.onTokens(request, tokens);
        const cost = this.budgets?.priceOf(context.model ?? context.target, event.response);
        if (cost !== undefined) fact.costUsd = cost;
        if (direct !== undefined) {
          this.budgets!.charge(key!, context.model ?? direct, event.response);
        }
      }),
    );
  }
}
