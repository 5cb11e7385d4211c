import { InvalidConfigurationException } from '../errors/exceptions.js';
import type { ChatModelWrapper } from '../chat/chat-model-wrapper.js';

/**
 * The models a stateful strategy reports on: those its ModelRouter registered, then any others
 * it was asked to route between (a strategy may be used on its own).
 */
export class GroupModels {
  private registered?: readonly string[];
  private readonly known = new Map<string, ChatModelWrapper>();

  constructor(private readonly owner: string) {}

  register(models: readonly ChatModelWrapper[]): void {
    const names = models.map((model) => model.name);
    if (this.registered) {
      const same =
        names.length === this.registered.length &&
        names.every((name, index) => name === this.registered![index]);
      if (same) return;
      throw new InvalidConfigurationException(
        `This ${this.owner} already serves a ModelRouter with the models ` +
          `${this.registered.join(', ')}; it cannot also serve one with ${names.join(', ')}. ` +
          `Give each ModelRouter its own ${this.owner}: it keeps state per model name.`,
      );
    }
    this.registered = names;
    this.see(models);
  }

  see(models: readonly ChatModelWrapper[]): void {
    for (const model of models) {
      if (!this.known.has(model.name)) this.known.set(model.name, model);
    }
  }

  list(): ChatModelWrapper[] {
    return [...this.known.values()];
  }
}
