import { Injectable } from '@nestjs/common';
import type { Observable } from 'rxjs';
import type { ChatStreamEvent } from '../../core/chat/chat-model.js';
import type { ChatMessage, ContentPart } from '../../core/chat/messages.js';
import type { ChatCallHandler, ChatInterceptor } from './chat-interceptor.js';
import type { ChatInterceptorContext } from './chat-interceptor-context.js';

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;

/**
 * Replaces e-mail addresses in user messages before any router, decision model or provider sees
 * them. The caller's request object is left untouched: the context gets a redacted copy.
 * Subclass and override `redact` for other patterns.
 */
@Injectable()
export class RedactEmailsInterceptor implements ChatInterceptor {
  protected readonly replacement: string = '[email]';

  intercept(context: ChatInterceptorContext, next: ChatCallHandler): Observable<ChatStreamEvent> {
    context.request = {
      ...context.request,
      messages: context.request.messages.map((message) => this.redactMessage(message)),
    };
    return next.handle();
  }

  protected redact(text: string): string {
    return text.replace(EMAIL, this.replacement);
  }

  protected redactMessage(message: ChatMessage): ChatMessage {
    if (message.role !== 'user') return message;
    if (typeof message.content === 'string') {
      return { ...message, content: this.redact(message.content) };
    }
    return {
      ...message,
      content: message.content.map((part): ContentPart =>
        part.type === 'text' ? { ...part, text: this.redact(part.text) } : part,
      ),
    };
  }
}
