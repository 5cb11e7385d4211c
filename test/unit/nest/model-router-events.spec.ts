import 'reflect-metadata';
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { Injectable, Logger, type LoggerService } from '@nestjs/common';
import { EventEmitterModule, OnEvent } from '@nestjs/event-emitter';
import { Test, type TestingModule } from '@nestjs/testing';
import type { ChatRequest } from '../../../src/core/chat/request.js';
import type { RoutingEvent } from '../../../src/core/observability/routing-event.js';
import { mapRoutingEvent } from '../../../src/nest/events/map-routing-event.js';
import { ModelRouterEventPublisher } from '../../../src/nest/events/model-router-event-publisher.js';
import {
  CooldownEndedEvent,
  CooldownStartedEvent,
  DecisionFailedEvent,
  FailoverEvent,
  RouteFailedEvent,
  RouteSelectedEvent,
  RouterExhaustedEvent,
  StateStoreStatusEvent,
} from '../../../src/nest/events/model-router-event-payloads.js';
import {
  MODEL_ROUTER_EVENTS,
  STATE_STORE_STATUS_EVENT,
} from '../../../src/nest/events/model-router-events.js';
import { InMemoryRouteStateStore } from '../../../src/core/state/in-memory-route-state-store.js';
import { scrubCredentials } from '../../../src/core/observability/scrub-credentials.js';
import { ModelRouterModule } from '../../../src/nest/module/model-router.module.js';
import { RoutingChatService } from '../../../src/nest/service/routing-chat.service.js';
import { FakeRouter } from './support/fake-routing.js';

const request: ChatRequest = { messages: [{ role: 'user', content: 'hello' }] };
const COOLDOWN_UNTIL = Date.UTC(2030, 0, 1, 12, 0, 0);

/** One event of each kind the module maps, as a routing core would report them during a call. */
const CALL_EVENTS: RoutingEvent[] = [
  {
    type: 'route-selected',
    route: 'simple',
    isDefaultRoute: false,
    probabilities: { simple: 0.8, complex: 0.2 },
  },
  {
    type: 'model-failed',
    route: 'simple',
    model: 'a',
    attempt: 1,
    kind: 'transient',
    error: { name: 'ProviderException', message: 'upstream 503 (key sk-abcdefghijklmnop)' },
  },
  {
    type: 'cooldown-started',
    route: 'simple',
    model: 'a',
    cooldownUntil: COOLDOWN_UNTIL,
    failures: 1,
    error: { name: 'ProviderException', message: 'upstream 503' },
  },
  { type: 'failover', route: 'simple', from: 'a', to: 'b', attempt: 2 },
  { type: 'model-succeeded', route: 'simple', model: 'b', attempt: 2 },
  { type: 'model-retry', route: 'simple', model: 'b', attempt: 2, delayMs: 10 },
  {
    type: 'decision-failed',
    error: { name: 'Error', message: 'judge down' },
    fallback: 'default-route',
  },
  {
    type: 'router-exhausted',
    route: 'complex',
    attempts: 2,
    errors: [
      { name: 'Error', message: 'x' },
      { name: 'Error', message: 'y' },
    ],
    retryAfterMs: 5000,
  },
  { type: 'cooldown-ended', route: 'simple', model: 'a' },
];

@Injectable()
class Listener {
  readonly received: { name: string; payload: unknown }[] = [];

  @OnEvent('model-router.**')
  onAny(payload: unknown): void {
    this.received.push({
      name: (payload as { constructor: { name: string } }).constructor.name,
      payload,
    });
  }
}

@Injectable()
class ThrowingListener {
  @OnEvent(MODEL_ROUTER_EVENTS.ROUTE_SELECTED)
  onSelected(): void {
    throw new Error('listener bug');
  }
}

let moduleRef: TestingModule | undefined;

const silentLogger: LoggerService = { log() {}, error() {}, warn() {} };

afterEach(async () => {
  await moduleRef?.close();
  moduleRef = undefined;
});

async function start(router: FakeRouter, withEvents: boolean, providers: unknown[] = []) {
  moduleRef = await Test.createTestingModule({
    imports: [
      ...(withEvents ? [EventEmitterModule.forRoot({ wildcard: true })] : []),
      ModelRouterModule.forRoot({ routers: { support: router } }),
    ],
    providers: providers as never[],
  })
    // the throwing-listener test makes the event emitter log the listener's error
    .setLogger(silentLogger)
    .compile();
  await moduleRef.init();
  return moduleRef.get(RoutingChatService);
}

describe('model-router events', () => {
  it('names the events exactly as DESIGN 2.6 says', () => {
    expect(MODEL_ROUTER_EVENTS).toEqual({
      ROUTE_SELECTED: 'model-router.route.selected',
      ROUTE_FAILED: 'model-router.route.failed',
      FAILOVER: 'model-router.route.failover',
      COOLDOWN_STARTED: 'model-router.cooldown.started',
      COOLDOWN_ENDED: 'model-router.cooldown.ended',
      ROUTER_EXHAUSTED: 'model-router.router.exhausted',
      DECISION_FAILED: 'model-router.decision.failed',
    });
  });

  it('emits a typed payload for each routing event of a call, with the router name', async () => {
    const router = new FakeRouter();
    router.events = CALL_EVENTS;
    const chat = await start(router, true, [Listener]);
    await chat.chat(request);
    const received = moduleRef!.get(Listener).received;

    expect(received.map((event) => event.name)).toEqual([
      'RouteSelectedEvent',
      'RouteFailedEvent',
      'CooldownStartedEvent',
      'FailoverEvent',
      'DecisionFailedEvent',
      'RouterExhaustedEvent',
      'CooldownEndedEvent',
    ]);
    const [selected, failed, cooldown, failover, decision, exhausted, ended] = received.map(
      (event) => event.payload,
    );
    expect(selected).toBeInstanceOf(RouteSelectedEvent);
    expect(selected).toMatchObject({
      router: 'support',
      route: 'simple',
      isDefaultRoute: false,
      probabilities: { simple: 0.8, complex: 0.2 },
    });
    expect(failed).toBeInstanceOf(RouteFailedEvent);
    expect(failed).toMatchObject({
      router: 'support',
      route: 'simple',
      model: 'a',
      attempt: 1,
      kind: 'transient',
      error: { name: 'ProviderException', message: 'upstream 503 (key sk-***)' },
    });
    expect(cooldown).toBeInstanceOf(CooldownStartedEvent);
    expect(cooldown).toMatchObject({
      router: 'support',
      model: 'a',
      cooldownUntil: '2030-01-01T12:00:00.000Z',
      failures: 1,
    });
    expect(failover).toBeInstanceOf(FailoverEvent);
    expect(failover).toMatchObject({
      router: 'support',
      from: 'a',
      to: 'b',
      model: 'b',
      attempt: 2,
    });
    expect(decision).toBeInstanceOf(DecisionFailedEvent);
    expect(decision).toMatchObject({ router: 'support', fallback: 'default-route' });
    expect(exhausted).toBeInstanceOf(RouterExhaustedEvent);
    expect(exhausted).toMatchObject({
      router: 'support',
      route: 'complex',
      attempts: 2,
      retryAfterMs: 5000,
    });
    expect(ended).toBeInstanceOf(CooldownEndedEvent);
    expect(ended).toMatchObject({ router: 'support', route: 'simple', model: 'a' });
    expect(typeof (ended as CooldownEndedEvent).timestamp).toBe('string');
  });

  it('emits events for a failed call too (the failure reaches listeners)', async () => {
    const router = new FakeRouter();
    router.events = [CALL_EVENTS[1]];
    router.failWith = new Error('no model left');
    const chat = await start(router, true, [Listener]);
    await expect(chat.chat(request)).rejects.toThrow('no model left');
    expect(moduleRef!.get(Listener).received.map((event) => event.name)).toEqual([
      'RouteFailedEvent',
    ]);
  });

  it('works without EventEmitterModule and emits nothing', async () => {
    const router = new FakeRouter();
    router.events = CALL_EVENTS;
    const chat = await start(router, false, [Listener]);
    const answer = await chat.chat(request);
    expect(answer.aiMessage.text).toBe('simple/model-a');
    expect(moduleRef!.get(Listener).received).toEqual([]);
  });

  it('never lets a throwing listener fail the call', async () => {
    const router = new FakeRouter();
    router.events = [CALL_EVENTS[0]];
    const chat = await start(router, true, [ThrowingListener]);
    await expect(chat.chat(request)).resolves.toMatchObject({ modelName: 'model-a' });
  });

  it('publishes events a router notices outside any call, and stops listening on shutdown', async () => {
    const router = new FakeRouter();
    await start(router, true, [Listener]);
    expect(router.listenerCount).toBe(1);
    router.emitOutsideCall({ type: 'cooldown-ended', route: 'simple', model: 'a' });
    const received = moduleRef!.get(Listener).received;
    expect(received).toHaveLength(1);
    expect(received[0].payload).toMatchObject({ router: 'support', route: 'simple', model: 'a' });
    await moduleRef!.close();
    moduleRef = undefined;
    expect(router.listenerCount).toBe(0);
  });
});

describe('state store status events', () => {
  it('turns a shared store switching to local-only and back into Nest events', async () => {
    type Change = { status: string; reason?: string; at: number };
    class StatusStore extends InMemoryRouteStateStore {
      listener: ((change: Change) => void) | undefined;
      onStatusChange(listener: (change: Change) => void) {
        this.listener = listener;
        return () => {
          this.listener = undefined;
        };
      }
    }
    const stateStore = new StatusStore();
    moduleRef = await Test.createTestingModule({
      imports: [
        EventEmitterModule.forRoot({ wildcard: true }),
        ModelRouterModule.forRoot({ routers: { main: new FakeRouter() }, stateStore }),
      ],
      providers: [Listener],
    }).compile();
    await moduleRef.init();
    stateStore.listener?.({
      status: 'local-only',
      reason: 'connect ECONNREFUSED redis://:hunter2@10.0.0.5:6379',
      at: Date.UTC(2030, 0, 1),
    });
    stateStore.listener?.({ status: 'shared', at: Date.UTC(2030, 0, 1, 0, 1) });
    const received = moduleRef.get(Listener).received;
    expect(received.map((event) => event.payload)).toEqual([
      new StateStoreStatusEvent({
        status: 'local-only',
        reason: 'connect ECONNREFUSED redis://***@10.0.0.5:6379',
        at: '2030-01-01T00:00:00.000Z',
      }),
      new StateStoreStatusEvent({ status: 'shared', at: '2030-01-01T00:01:00.000Z' }),
    ]);
    expect(STATE_STORE_STATUS_EVENT).toBe('model-router.state-store.status');
    await moduleRef.close();
    moduleRef = undefined;
    expect(stateStore.listener).toBeUndefined();
  });
});

describe('mapRoutingEvent', () => {
  it('maps nothing for events without a public name', () => {
    expect(
      mapRoutingEvent({ type: 'model-succeeded', model: 'a', attempt: 1 }, 'r'),
    ).toBeUndefined();
    expect(
      mapRoutingEvent({ type: 'circuit-changed', model: 'a', from: 'open', to: 'half-open' }, 'r'),
    ).toBeUndefined();
  });

  it('leaves out fields that do not apply instead of setting them to undefined', () => {
    const mapped = mapRoutingEvent({ type: 'cooldown-ended', model: 'a' }, 'r');
    expect(mapped?.name).toBe(MODEL_ROUTER_EVENTS.COOLDOWN_ENDED);
    expect(Object.keys(mapped!.payload).toSorted()).toEqual(['model', 'router', 'timestamp']);
  });
});

describe('scrubCredentials', () => {
  it.each([
    [
      '401 Incorrect API key provided: sk-proj-abc123def456ghi',
      '401 Incorrect API key provided: sk-***',
    ],
    [
      'connect redis://default:s3cr3t@redis.local:6379 failed',
      'connect redis://***@redis.local:6379 failed',
    ],
    ['header Authorization: Bearer abc.def-ghi', 'header Authorization: Bearer ***'],
    ['GET /v1?api_key=12345&x=1', 'GET /v1?api_key=***&x=1'],
    ['{"password": "hunter2"}', '{"password": "***"}'],
  ])('scrubs %s', (input, expected) => {
    expect(scrubCredentials(input)).toBe(expected);
  });

  it('leaves ordinary messages alone', () => {
    const message = "Model 'gpt-4o' returned 503 Service Unavailable at https://api.example.com/v1";
    expect(scrubCredentials(message)).toBe(message);
  });
});

describe('ModelRouterEventPublisher and a throwing sink', () => {
  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('logs the error on one line: control characters in its message are escaped', () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const publisher = new ModelRouterEventPublisher();
    publisher.useSink({
      emit() {
        throw new Error("no route for model 'evil\n[Nest] LOG forged line'");
      },
    });

    publisher.emit(MODEL_ROUTER_EVENTS.ROUTE_FAILED, {});

    expect(warn).toHaveBeenCalledTimes(1);
    const line = String(warn.mock.calls[0]![0]);
    expect(line).not.toContain('\n');
    expect(line).toContain("model 'evil\\n[Nest] LOG forged line'");
  });
});
