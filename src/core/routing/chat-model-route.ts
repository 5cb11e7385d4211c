import type { ChatModel } from '../chat/chat-model.js';

/** A route as configured: a name, what it is for, and the model that serves it. */
export interface RouteDefinition {
  name: string;
  description?: string | string[];
  /** Sample user messages for the route; decision models may learn from them. */
  examples?: string[];
  model: ChatModel;
}

/** A route as a router sees it: no model. `examples` is present only when the route has some. */
export interface ChatModelRoute {
  readonly name: string;
  readonly descriptions: readonly string[];
  readonly examples?: readonly string[];
}
