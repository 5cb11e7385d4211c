import { Injectable } from '@nestjs/common';
import { type Observable, tap } from 'rxjs';
import type { ChatStreamEvent } from '../../core/chat/chat-model.js';
import type { ChatCallHooks } from './chat-call-hooks.js';
import type { ChatCallHandler, ChatInterceptor } from './chat-interceptor.js';
import type { ChatInterceptorContext } from './chat-interceptor-context.js';

/**
 * Built-in: sets `context.durationMs` when the call ends (completed, failed or cancelled), before
 * the caller sees the outcome. Interceptors inside the chain can read `context.elapsedMs()`.
 */
@Injectable()
export class TimingChatInterceptor implements ChatInterceptor {
  readonly hooks: ChatCallHooks = {
    end: (context) => {
      context.durationMs ??= context.elapsedMs();
    },
  };

  intercept(context: ChatInterceptorContext, next: ChatCallHandler): Observable<ChatStreamEvent> {
    const stop = () => this.hooks.end!(context, { outcome: 'ok' });
    return next.handle().pipe(tap({ complete: stop, error: stop, unsubscribe: stop }));
  }
}
