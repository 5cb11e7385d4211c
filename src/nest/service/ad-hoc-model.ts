import { isChatModel } from '../../core/chat/chat-model.js';
import type { ChatModel } from '../../core/chat/chat-model.js';
import { RoutingException } from '../../core/errors/exceptions.js';

/** A model addressed by a call without being registered in the module. */
export interface AdHocModel {
  /** How events, metrics and the `x-model-router-model` header name it. */
  name: string;
  model: ChatModel;
}

/** An ad-hoc model's name and model, or a RoutingException saying what it lacks. */
export function adHocTarget(model: AdHocModel): [string, ChatModel] {
  if (typeof model?.name !== 'string' || model.name.trim() === '') {
    throw new RoutingException('model: an ad-hoc model needs a non-blank name ({ name, model })');
  }
  if (!isChatModel(model.model)) {
    throw new RoutingException(
      `model '${model.name}': an ad-hoc model needs a ChatModel ({ name, model: { chat() } })`,
    );
  }
  return [model.name, model.model];
}
