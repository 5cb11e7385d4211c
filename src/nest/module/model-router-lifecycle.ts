import { Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { ModelRouterEventPublisher } from '../events/model-router-event-publisher.js';
import { ModelRouterRegistry } from './model-router-registry.js';

/**
 * Start-up and shut-down work: listens to events routers notice outside calls (a cooldown that
 * ended, noticed by a health check), and closes the state store when the module owns it.
 */
@Injectable()
export class ModelRouterLifecycle implements OnModuleInit, OnApplicationShutdown {
  private unsubscribes: (() => void)[] = [];

  constructor(
    private readonly registry: ModelRouterRegistry,
    private readonly publisher: ModelRouterEventPublisher,
  ) {}

  onModuleInit(): void {
    this.unsubscribes = this.registry.subscribeToRouterEvents((router, event) =>
      this.publisher.publish(event, router),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    for (const unsubscribe of this.unsubscribes.splice(0)) unsubscribe();
    if (this.registry.closeStateStoreOnShutdown) await this.registry.stateStore.close?.();
  }
}
