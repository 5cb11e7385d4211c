import { Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { ModelRouterEventPublisher } from '../events/model-router-event-publisher.js';
import { StateStoreStatusEvent } from '../events/model-router-event-payloads.js';
import { STATE_STORE_STATUS_EVENT } from '../events/model-router-events.js';
import { scrubCredentials } from '../../core/observability/scrub-credentials.js';
import { loadOpenTelemetryTracing } from './load-tracing.js';
import { ModelRouterRegistry } from './model-router-registry.js';
import { CacheLookupEvent, cacheEventName } from '../events/cache-events.js';

/** A store that reports when it stops or resumes sharing (the Redis store does). */
interface StatusSource {
  onStatusChange(
    listener: (change: { status: string; reason?: string; at: number }) => void,
  ): (() => void) | void;
}

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

  async onModuleInit(): Promise<void> {
    await loadOpenTelemetryTracing();
    this.unsubscribes = this.registry.subscribeToRouterEvents((router, event) =>
      this.publisher.publish(event, router),
    );
    const cache = this.registry.cache;
    if (cache !== undefined && this.publisher.enabled) {
      cache.onLookup = (call) => {
        if (call.cache === undefined) return;
        this.publisher.emit(
          cacheEventName(call.cache),
          new CacheLookupEvent({
            router: call.routerName ?? call.target ?? 'unknown',
            outcome: call.cache,
            ...(call.cacheSimilarity !== undefined ? { similarity: call.cacheSimilarity } : {}),
            ...(call.cacheSavedUsd !== undefined ? { savedUsd: call.cacheSavedUsd } : {}),
          }),
        );
      };
    }
    const store = this.registry.stateStore as Partial<StatusSource>;
    if (typeof store.onStatusChange === 'function') {
      const unsubscribe = store.onStatusChange((change) =>
        this.publisher.emit(
          STATE_STORE_STATUS_EVENT,
          new StateStoreStatusEvent({
            status: change.status,
            ...(change.reason !== undefined ? { reason: scrubCredentials(change.reason) } : {}),
            at: new Date(change.at).toISOString(),
          }),
        ),
      );
      if (typeof unsubscribe === 'function') this.unsubscribes.push(unsubscribe);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    for (const unsubscribe of this.unsubscribes.splice(0)) unsubscribe();
    if (this.registry.closeStateStoreOnShutdown) await this.registry.stateStore.close?.();
    if (this.registry.closeCacheOnShutdown) await this.registry.cache?.close();
  }
}
