import { Injectable } from '@nestjs/common';
import { type Observable, tap } from 'rxjs';
import type { ChatStreamEvent } from '../../core/chat/chat-model.js';
import type { ChatCallHandler, ChatInterceptor } from './chat-interceptor.js';
import type { ChatInterceptorContext } from './chat-interceptor-context.js';

/**
 * Built-in: sets `context.durationMs` when the call ends (completed, failed or cancelled), before
 * the caller sees the outcome. Interceptors inside the chain can read `context.elapsedMs()`.
 */
@Injectable()
export class TimingChatInterceptor implements ChatInterceptor {
  intercept(context: ChatInterceptorContext, next: ChatCallHandler): Observable<ChatStreamEvent> {
    const stop = () => {
      context.durationMs ??= context.elapsedMs();
    };
    return next.handle().pipe(tap({ complete: stop, error: stop, unsubscribe: stop }));
  }
}
