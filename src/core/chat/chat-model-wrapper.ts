import type { ChatModel } from './chat-model.js';

/** A model inside a group, under the name that events, health and strategies use. */
export interface ChatModelWrapper {
  readonly name: string;
  readonly model: ChatModel;
  /** Free-form per-model data for strategies (weights, tiers, limits). */
  readonly metadata: Map<string, unknown>;
}

export function wrapModel(
  name: string,
  model: ChatModel,
  metadata: Iterable<[string, unknown]> = [],
): ChatModelWrapper {
  return Object.freeze({ name, model, metadata: new Map(metadata) });
}
