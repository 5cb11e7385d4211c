import type { ChatModel, ChatModelListener } from '../../core/chat/chat-model.js';
import { ResilientChatModel } from '../../core/resilience/resilient-chat-model.js';
import { currentGatewayCall } from './gateway-call-scope.js';

interface Listenable {
  addListener(listener: ChatModelListener): void;
}

function isListenable(model: ChatModel): model is ChatModel & Listenable {
  return typeof (model as Partial<Listenable>).addListener === 'function';
}

/**
 * Routing events name a group's model only when it succeeds, but a stream's headers and first
 * chunks go out before that. Models built on BaseChatModel announce each call to their
 * listeners, so the gateway learns which model is answering as soon as it is called.
 * Idempotent per model instance; models without listeners are simply not tracked.
 */
export class ModelAttemptTracker {
  private readonly tracked = new WeakSet<object>();

  track(name: string, given: ChatModel): void {
    // retries and timeouts wrap the provider's model, which is the one with listeners
    const model = given instanceof ResilientChatModel ? given.model : given;
    if (!isListenable(model) || this.tracked.has(model)) return;
    this.tracked.add(model);
    model.addListener({
      onRequest: () => {
        const scope = currentGatewayCall();
        if (scope) scope.attemptModel = name;
      },
    });
  }
}
