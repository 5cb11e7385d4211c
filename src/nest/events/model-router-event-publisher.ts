import { Injectable, Logger, type OnModuleInit, Optional } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { logSafe } from '../../core/observability/log-safe.js';
import type { RoutingEvent } from '../../core/observability/routing-event.js';
import { mapRoutingEvent } from './map-routing-event.js';

/** The part of EventEmitter2 the module uses. */
export interface ModelRouterEventSink {
  emit(event: string, ...values: unknown[]): unknown;
}

/**
 * Emits model-router events on the application's EventEmitter2, when there is one. The library
 * never registers EventEmitterModule itself, and `@nestjs/event-emitter` is an optional peer:
 * it is looked up once at start-up, and without it every publish is a no-op.
 */
@Injectable()
export class ModelRouterEventPublisher implements OnModuleInit {
  private readonly logger = new Logger('ModelRouter');
  private sink: ModelRouterEventSink | undefined;

  constructor(@Optional() private readonly moduleRef?: ModuleRef) {}

  async onModuleInit(): Promise<void> {
    if (this.sink || !this.moduleRef) return;
    this.sink = await findEventEmitter(this.moduleRef);
  }

  /** Uses this sink instead of the application's EventEmitter2 (tests, custom buses). */
  useSink(sink: ModelRouterEventSink | undefined): void {
    this.sink = sink;
  }

  get enabled(): boolean {
    return this.sink !== undefined;
  }

  publish(event: RoutingEvent, router: string): void {
    if (!this.sink) return;
    const mapped = mapRoutingEvent(event, router);
    if (mapped) this.emit(mapped.name, mapped.payload);
  }

  /** Emits any payload; a throwing listener is logged, never propagated to the caller. */
  emit(name: string, payload: object): void {
    if (!this.sink) return;
    try {
      this.sink.emit(name, payload);
    } catch (error) {
      // a failing listener must not fail the chat call that produced the event
      // the listener's message may quote the payload: model names a client chose
      this.logger.warn(
        logSafe(
          `A listener of '${name}' threw: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
    }
  }
}

async function findEventEmitter(moduleRef: ModuleRef): Promise<ModelRouterEventSink | undefined> {
  let EventEmitter2: unknown;
  try {
    ({ EventEmitter2 } = await import('@nestjs/event-emitter'));
  } catch {
    return undefined; // the optional peer is not installed
  }
  try {
    return moduleRef.get(EventEmitter2 as new () => ModelRouterEventSink, { strict: false });
  } catch {
    return undefined; // EventEmitterModule.forRoot() was not imported
  }
}
