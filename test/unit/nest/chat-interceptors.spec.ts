import 'reflect-metadata';
import { afterEach, describe, expect, it } from '@jest/globals';
import { Injectable, Module } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { type Observable, of, tap } from 'rxjs';
import type { ChatStreamEvent } from '../../../src/core/chat/chat-model.js';
import type { ChatRequest } from '../../../src/core/chat/request.js';
import { RoutingException } from '../../../src/core/errors/exceptions.js';
import type {
  ChatCallHandler,
  ChatInterceptor,
} from '../../../src/nest/interceptors/chat-interceptor.js';
import type { ChatInterceptorContext } from '../../../src/nest/interceptors/chat-interceptor-context.js';
import { ChatInterceptorChain } from '../../../src/nest/interceptors/chat-interceptor-chain.js';
import { ChatInterceptorProvider } from '../../../src/nest/interceptors/chat-interceptor-provider.decorator.js';
import { EventsChatInterceptor } from '../../../src/nest/interceptors/events.chat-interceptor.js';
import { RedactEmailsInterceptor } from '../../../src/nest/interceptors/redact-emails.interceptor.js';
import { TimingChatInterceptor } from '../../../src/nest/interceptors/timing.chat-interceptor.js';
import { ModelRouterModule } from '../../../src/nest/module/model-router.module.js';
import type { ModelRouterModuleOptions } from '../../../src/nest/module/model-router-module-options.js';
import { RoutingChatService } from '../../../src/nest/service/routing-chat.service.js';
import { FakeRouter, response } from './support/fake-routing.js';

const request: ChatRequest = { messages: [{ role: 'user', content: 'hello' }] };

/** Records the order in which interceptors run, before and after the call. */
const trace: string[] = [];

class Recording implements ChatInterceptor {
  constructor(readonly label: string) {}
  intercept(context: ChatInterceptorContext, next: ChatCallHandler): Observable<ChatStreamEvent> {
    trace.push(`${this.label}:before`);
    return next.handle().pipe(tap({ complete: () => trace.push(`${this.label}:after`) }));
  }
}

@Injectable()
class ClassRegistered extends Recording {
  constructor() {
    super('class');
  }
}

@ChatInterceptorProvider({ order: 2 })
class DiscoveredLate extends Recording {
  constructor() {
    super('discovered-late');
  }
}

@ChatInterceptorProvider({ order: 1 })
class DiscoveredEarly extends Recording {
  constructor() {
    super('discovered-early');
  }
}

@Module({ providers: [DiscoveredLate, DiscoveredEarly] })
// oxlint-disable-next-line typescript/no-extraneous-class -- a Nest module
class FeatureModule {}

let moduleRef: TestingModule | undefined;

async function start(options: ModelRouterModuleOptions, imports: unknown[] = []) {
  moduleRef = await Test.createTestingModule({
    imports: [ModelRouterModule.forRoot(options), ...(imports as never[])],
  }).compile();
  await moduleRef.init();
  return { chat: moduleRef.get(RoutingChatService), chain: moduleRef.get(ChatInterceptorChain) };
}

afterEach(async () => {
  trace.length = 0;
  await moduleRef?.close();
  moduleRef = undefined;
});

describe('chat interceptor chain', () => {
  it('runs the built-in interceptors first, then the configured ones, then the discovered ones by order', async () => {
    const instance = new Recording('instance');
    const { chat, chain } = await start(
      { routers: { main: new FakeRouter() }, interceptors: [instance, ClassRegistered] },
      [FeatureModule],
    );
    const list = chain.list();
    expect(list[0]).toBeInstanceOf(EventsChatInterceptor);
    expect(list[1]).toBeInstanceOf(TimingChatInterceptor);
    expect(list.slice(2).map((interceptor) => (interceptor as Recording).label)).toEqual([
      'instance',
      'class',
      'discovered-early',
      'discovered-late',
    ]);

    await chat.chat(request);
    expect(trace).toEqual([
      'instance:before',
      'class:before',
      'discovered-early:before',
      'discovered-late:before',
      'discovered-late:after',
      'discovered-early:after',
      'class:after',
      'instance:after',
    ]);
  });

  it('lets an interceptor replace the request the router receives', async () => {
    const router = new FakeRouter();
    const rewrite: ChatInterceptor = {
      intercept(context, next) {
        context.request = { ...context.request, parameters: { temperature: 0 } };
        context.attributes.tenant = 'acme';
        return next.handle();
      },
    };
    const { chat } = await start({ routers: { main: router }, interceptors: [rewrite] });
    await chat.chat(request);
    expect(router.calls[0].request.parameters).toEqual({ temperature: 0 });
    expect(router.calls[0].options.attributes).toEqual({ model_router: 'main', tenant: 'acme' });
  });

  it('gives interceptors the router name and attributes before, and the route, model, response and duration after', async () => {
    const router = new FakeRouter();
    router.route = 'complex';
    router.events = [
      { type: 'route-selected', route: 'complex', isDefaultRoute: false },
      { type: 'model-succeeded', route: 'complex', model: 'big-1', attempt: 1 },
    ];
    let now = 1_000;
    const seen: Record<string, unknown>[] = [];
    const probe: ChatInterceptor = {
      intercept(context, next) {
        seen.push({
          router: context.routerName,
          attributes: { ...context.attributes },
          route: context.route,
        });
        now += 250;
        return next.handle().pipe(
          tap({
            complete: () =>
              seen.push({
                route: context.route,
                model: context.model,
                text: context.response?.aiMessage.text,
                elapsed: context.elapsedMs(),
              }),
          }),
        );
      },
    };
    let captured: ChatInterceptorContext | undefined;
    const capture: ChatInterceptor = {
      intercept(context, next) {
        captured = context;
        return next.handle();
      },
    };
    const { chat } = await start({
      routers: { main: router },
      interceptors: [capture, probe],
      clock: () => now,
    });
    await chat.chat(request, { attributes: { user: 'u1' } });
    expect(seen).toEqual([
      { router: 'main', attributes: { user: 'u1', model_router: 'main' }, route: undefined },
      { route: 'complex', model: 'big-1', text: 'complex/model-a', elapsed: 250 },
    ]);
    expect(captured?.durationMs).toBe(250);
    expect(captured?.mode).toBe('chat');
  });

  it('falls back to the response for route and model when the router reports no events', async () => {
    const router = new FakeRouter();
    let captured: ChatInterceptorContext | undefined;
    const capture: ChatInterceptor = {
      intercept(context, next) {
        captured = context;
        return next.handle();
      },
    };
    const { chat } = await start({ routers: { main: router }, interceptors: [capture] });
    await chat.chat(request);
    expect(captured?.route).toBe('simple');
    expect(captured?.model).toBe('model-a');
  });

  it('lets an interceptor answer without calling the router', async () => {
    const router = new FakeRouter();
    const cached: ChatInterceptor = {
      intercept: () => of({ type: 'complete', response: response('from cache') }),
    };
    const { chat } = await start({ routers: { main: router }, interceptors: [cached] });
    expect((await chat.chat(request)).aiMessage.text).toBe('from cache');
    expect(router.calls).toHaveLength(0);
  });

  it('fails the call with the error of an interceptor that throws', async () => {
    const failure = new Error('policy violation');
    const throwing: ChatInterceptor = {
      intercept() {
        throw failure;
      },
    };
    const router = new FakeRouter();
    const { chat } = await start({ routers: { main: router }, interceptors: [throwing] });
    await expect(chat.chat(request)).rejects.toBe(failure);
    expect(router.calls).toHaveLength(0);
  });

  it('reports an interceptor that drops the complete event instead of resolving with nothing', async () => {
    const dropping: ChatInterceptor = { intercept: () => of() };
    const { chat } = await start({ routers: { main: new FakeRouter() }, interceptors: [dropping] });
    await expect(chat.chat(request)).rejects.toThrow(RoutingException);
  });
});

describe('RedactEmailsInterceptor', () => {
  it('redacts e-mail addresses in user messages only, leaving the caller request untouched', async () => {
    const router = new FakeRouter();
    const { chat } = await start({
      routers: { main: router },
      interceptors: [new RedactEmailsInterceptor()],
    });
    const original: ChatRequest = {
      messages: [
        { role: 'system', text: 'Support desk: help@example.com' },
        { role: 'user', content: 'I am jane.doe+test@mail.example.co.uk, call me' },
        { role: 'assistant', text: 'Noted, jane.doe+test@mail.example.co.uk' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'cc bob@corp.io and alice@corp.io' },
            { type: 'image', url: 'https://img.example.com/a@b.png' },
          ],
        },
      ],
    };
    const snapshot = structuredClone(original);
    await chat.chat(original);
    expect(original).toEqual(snapshot);
    expect(router.calls[0].request.messages).toEqual([
      { role: 'system', text: 'Support desk: help@example.com' },
      { role: 'user', content: 'I am [email], call me' },
      { role: 'assistant', text: 'Noted, jane.doe+test@mail.example.co.uk' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'cc [email] and [email]' },
          { type: 'image', url: 'https://img.example.com/a@b.png' },
        ],
      },
    ]);
  });

  it('leaves text without addresses alone', async () => {
    const router = new FakeRouter();
    const { chat } = await start({
      routers: { main: router },
      interceptors: [RedactEmailsInterceptor],
    });
    await chat.chat({ messages: [{ role: 'user', content: 'email me @ noon, user@host' }] });
    expect(router.calls[0].request.messages[0]).toEqual({
      role: 'user',
      content: 'email me @ noon, user@host',
    });
  });
});
