import 'reflect-metadata';
import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it } from '@jest/globals';
import { Test, type TestingModule } from '@nestjs/testing';
import { firstValueFrom, lastValueFrom, take, toArray } from 'rxjs';
import type { ChatModel, ChatStreamEvent } from '../../../src/core/chat/chat-model.js';
import type { ChatRequest } from '../../../src/core/chat/request.js';
import { RoutingException } from '../../../src/core/errors/exceptions.js';
import { ModelRouterModule } from '../../../src/nest/module/model-router.module.js';
import type { ModelRouterModuleOptions } from '../../../src/nest/module/model-router-module-options.js';
import { ROUTER_ATTRIBUTE } from '../../../src/core/chat/call-attributes.js';
import { RoutingChatService } from '../../../src/nest/service/routing-chat.service.js';
import { EndlessStreamModel, FakeModel, FakeRouter } from './support/fake-routing.js';

const request: ChatRequest = { messages: [{ role: 'user', content: 'hello' }] };

let moduleRef: TestingModule | undefined;

async function service(options: ModelRouterModuleOptions): Promise<RoutingChatService> {
  moduleRef = await Test.createTestingModule({
    imports: [ModelRouterModule.forRoot(options)],
  }).compile();
  await moduleRef.init();
  return moduleRef.get(RoutingChatService);
}

afterEach(async () => {
  await moduleRef?.close();
  moduleRef = undefined;
});

describe('RoutingChatService.chat', () => {
  it('calls the named router with the request, signal, attributes + model_router and an observer', async () => {
    const a = new FakeRouter('a');
    const b = new FakeRouter('b');
    const chat = await service({ routers: { a, b }, defaultRouter: 'a' });
    const controller = new AbortController();

    const answer = await chat.chat(request, {
      router: 'b',
      signal: controller.signal,
      attributes: { tenant: 'acme' },
    });

    expect(answer.aiMessage.text).toBe('simple/model-a');
    expect(a.calls).toHaveLength(0);
    expect(b.calls).toHaveLength(1);
    const [{ request: seen, options }] = b.calls;
    expect(seen).toEqual(request);
    expect(options.attributes).toEqual({ tenant: 'acme', [ROUTER_ATTRIBUTE]: 'b' });
    expect(ROUTER_ATTRIBUTE).toBe('model_router');
    expect(typeof options.observer).toBe('function');
    expect(options.signal?.aborted).toBe(false);
    // only its caller ends a chat() call: the caller's signal is the call's, no controller of its
    // own; the call is over and left no listener on it, so a long-lived signal retains nothing
    expect(options.signal).toBe(controller.signal);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it("passes a signal that aborts with the caller's reason while the call runs", async () => {
    let seen: AbortSignal | undefined;
    const router = {
      chat: (_request: unknown, options?: { signal?: AbortSignal }) =>
        new Promise<never>((_resolve, reject) => {
          seen = options?.signal;
          seen?.addEventListener('abort', () => reject(seen?.reason));
        }),
    };
    const chat = await service({ routers: { slow: router } });
    const controller = new AbortController();
    const pending = chat.chat(request, { signal: controller.signal });
    await new Promise((resolve) => setImmediate(resolve));
    const reason = new Error('caller left');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(seen?.aborted).toBe(true);
    expect(seen?.reason).toBe(reason);
  });

  it('uses the default router, or the only router when there is one', async () => {
    const a = new FakeRouter('a');
    const b = new FakeRouter('b');
    const chat = await service({ routers: { a, b }, defaultRouter: 'b' });
    await chat.chat(request);
    expect(b.calls).toHaveLength(1);
    await moduleRef?.close();

    const only = new FakeRouter('only');
    const single = await service({ routers: { only } });
    await single.chat(request);
    expect(only.calls).toHaveLength(1);
  });

  it('rejects an unknown router with a RoutingException naming it and the known routers', async () => {
    const chat = await service({ routers: { a: new FakeRouter(), b: new FakeRouter() } });
    const error = await chat.chat(request, { router: 'nope' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RoutingException);
    expect((error as Error).message).toBe("Unknown router 'nope'; known routers: 'a', 'b'");
  });

  it('suggests the router a mistyped name meant', async () => {
    const chat = await service({
      routers: { assistant: new FakeRouter(), support: new FakeRouter() },
    });
    const error = await chat.chat(request, { router: 'asistant' }).catch((e: unknown) => e);
    expect((error as Error).message).toBe(
      "Unknown router 'asistant'; known routers: 'assistant', 'support'; did you mean 'assistant'?",
    );
  });

  it('asks for a router when several exist and none is the default', async () => {
    const chat = await service({ routers: { a: new FakeRouter(), b: new FakeRouter() } });
    await expect(chat.chat(request)).rejects.toThrow(/no defaultRouter configured/);
  });

  it("propagates the router's error unchanged", async () => {
    const router = new FakeRouter();
    const failure = new Error('all models failed');
    router.failWith = failure;
    const chat = await service({ routers: { main: router } });
    await expect(chat.chat(request)).rejects.toBe(failure);
  });

  it('calls a registered model directly by name', async () => {
    const small = new FakeModel('small');
    const chat = await service({ routers: { main: new FakeRouter() }, models: { small } });
    const answer = await chat.chat(request, { model: 'small', attributes: { a: 1 } });
    expect(answer.aiMessage.text).toBe('answer from small');
    expect(small.calls[0].options.attributes).toEqual({ a: 1 });
    await expect(chat.chat(request, { model: 'big' })).rejects.toThrow(
      "Unknown model 'big'; known models: 'small'",
    );
    await expect(chat.chat(request, { model: 'small', router: 'main' })).rejects.toThrow(
      RoutingException,
    );
  });

  it('lists its routers and models', async () => {
    const chat = await service({
      routers: { a: new FakeRouter(), b: new FakeRouter() },
      models: { m: new FakeModel('m') },
      defaultRouter: 'b',
    });
    expect(chat.routerNames()).toEqual(['a', 'b']);
    expect(chat.modelNames()).toEqual(['m']);
    expect(chat.resolveRouterName()).toBe('b');
    expect(() => chat.resolveRouterName('zzz')).toThrow(RoutingException);
  });
});

describe('RoutingChatService.stream', () => {
  it('does nothing until subscribed, then emits the deltas and one complete event', async () => {
    const router = new FakeRouter();
    const streaming: ChatModel = {
      chat: (req, opts) => router.chat(req, opts),
      async *stream() {
        yield { type: 'text-delta', text: 'Hel' };
        yield { type: 'text-delta', text: 'lo' };
        yield {
          type: 'complete',
          response: { aiMessage: { role: 'assistant', text: 'Hello' }, modelName: 'm' },
        };
      },
    };
    const chat = await service({ routers: { main: streaming } });
    const stream$ = chat.stream(request);
    expect(router.calls).toHaveLength(0);
    const events = await lastValueFrom(stream$.pipe(toArray()));
    expect(events.map((event) => event.type)).toEqual(['text-delta', 'text-delta', 'complete']);
  });

  it('serves a router without stream() through chat() as one delta and complete', async () => {
    const chat = await service({ routers: { main: new FakeRouter() } });
    const events = await lastValueFrom(chat.stream(request).pipe(toArray()));
    expect(events).toEqual([
      { type: 'text-delta', text: 'simple/model-a' },
      expect.objectContaining({ type: 'complete' }),
    ]);
  });

  it('aborts the provider call when the subscriber unsubscribes', async () => {
    const endless = new EndlessStreamModel();
    const chat = await service({ routers: { main: endless } });
    const firstTwo = await lastValueFrom(chat.stream(request).pipe(take(2), toArray()));
    expect(firstTwo).toHaveLength(2);
    expect(endless.signal?.aborted).toBe(true);
    expect((endless.signal!.reason as Error).name).toBe('AbortError');
    await waitUntil(() => endless.finished);
  });

  it('aborts when the caller aborts, and fails the stream with the reason', async () => {
    const endless = new EndlessStreamModel();
    const chat = await service({ routers: { main: endless } });
    const controller = new AbortController();
    const reason = new Error('client went away');
    const events: ChatStreamEvent[] = [];
    const done = new Promise<unknown>((resolve) => {
      chat.stream(request, { signal: controller.signal }).subscribe({
        next: (event) => {
          events.push(event);
          if (events.length === 1) controller.abort(reason);
        },
        error: resolve,
      });
    });
    await expect(done).resolves.toBe(reason);
    expect(endless.signal?.aborted).toBe(true);
  });

  it('fails a stream that ends without a complete event instead of reporting success', async () => {
    const truncated: ChatModel = {
      chat: () => Promise.reject(new Error('unused')),
      async *stream() {
        yield { type: 'text-delta', text: 'partial' };
      },
    };
    const chat = await service({ routers: { main: truncated } });
    await expect(lastValueFrom(chat.stream(request))).rejects.toThrow(
      'The stream ended without a complete event',
    );
  });

  it('errors the observable for an unknown router', async () => {
    const chat = await service({ routers: { main: new FakeRouter() } });
    await expect(firstValueFrom(chat.stream(request, { router: 'other' }))).rejects.toThrow(
      "Unknown router 'other'",
    );
  });
});

function noop(): void {}

async function waitUntil(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !condition(); i++) await new Promise((r) => setImmediate(r));
  expect(condition()).toBe(true);
}

describe('RoutingChatService and the caller signal', () => {
  it('rejects at once with the reason when the signal is already aborted; the router is not called', async () => {
    const router = new FakeRouter();
    const chat = await service({ routers: { main: router } });
    const reason = new Error('too late');
    await expect(chat.chat(request, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    expect(router.calls).toHaveLength(0);
  });

  it('rejects with the reason even when the model ignores its signal', async () => {
    let release = noop;
    const stubborn: ChatModel = {
      chat: () =>
        new Promise((resolve) => {
          release = () => resolve({ aiMessage: { role: 'assistant', text: 'late' } });
        }),
    };
    const chat = await service({ routers: { main: stubborn } });
    const controller = new AbortController();
    const pending = chat.chat(request, { signal: controller.signal });
    const reason = new Error('cancelled by the caller');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    release();
  });
});
