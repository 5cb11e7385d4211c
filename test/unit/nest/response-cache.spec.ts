import 'reflect-metadata';
import { afterEach, describe, expect, it } from '@jest/globals';
import { Test, type TestingModule } from '@nestjs/testing';
import { lastValueFrom, toArray } from 'rxjs';
import type { ChatRequest } from '../../../src/core/chat/request.js';
import { ModelRouterModule } from '../../../src/nest/module/model-router.module.js';
import type { ModelRouterModuleOptions } from '../../../src/nest/module/model-router-module-options.js';
import { ModelRouterRegistry } from '../../../src/nest/module/model-router-registry.js';
import type { ChatInterceptor } from '../../../src/nest/interceptors/chat-interceptor.js';
import type { ChatInterceptorContext } from '../../../src/nest/interceptors/chat-interceptor-context.js';
import { RoutingChatService } from '../../../src/nest/service/routing-chat.service.js';
import { FakeRouter } from './support/fake-routing.js';

const request: ChatRequest = { messages: [{ role: 'user', content: 'hello' }] };

let moduleRef: TestingModule | undefined;

async function start(options: ModelRouterModuleOptions) {
  moduleRef = await Test.createTestingModule({
    imports: [ModelRouterModule.forRoot(options)],
  }).compile();
  await moduleRef.init();
  return { chat: moduleRef.get(RoutingChatService), registry: moduleRef.get(ModelRouterRegistry) };
}

afterEach(async () => {
  await moduleRef?.close();
  moduleRef = undefined;
});

/** An app's own interceptor (no hooks): calls then run on the Observable chain. */
class Recording implements ChatInterceptor {
  readonly records: ChatInterceptorContext[] = [];
  intercept(context: ChatInterceptorContext, next: { handle(): never }) {
    this.records.push(context);
    return next.handle();
  }
}

describe('the response cache in the Nest module', () => {
  it('answers a repeated call without the router, on the hooks path and the Observable chain', async () => {
    for (const interceptors of [[], [new Recording()]]) {
      const router = new FakeRouter();
      const { chat, registry } = await start({
        routers: { main: router },
        cache: { ttl: '5m' },
        interceptors,
      });
      const answer = await chat.chat(request);
      expect(answer.aiMessage.text).toBe('simple/model-a');
      const again = await chat.chat(request);
      expect(router.calls).toHaveLength(1);
      expect(again.aiMessage.text).toBe('simple/model-a');
      expect(again.aiMessage.attributes).toMatchObject({ model_router_cache: 'hit' });
      expect(registry.cacheStats()).toMatchObject({ hits: 1, misses: 1, hitRate: 0.5 });
      await moduleRef!.close();
      moduleRef = undefined;
    }
  });

  it('replays a stream from a cached answer and records the hit', async () => {
    const router = new FakeRouter();
    const recording = new Recording();
    const { chat } = await start({
      routers: { main: router },
      cache: { ttl: '5m', replay: { chunksPerSecond: 0 } },
      interceptors: [recording],
    });
    await chat.chat(request);
    const events = await lastValueFrom(chat.stream(request).pipe(toArray()));
    expect(router.calls).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: 'complete' });
    expect(events.filter((event) => event.type === 'text-delta').length).toBeGreaterThan(0);
    expect(recording.records.at(-1)!.cache).toBe('hit');
  });

  it('keeps callers apart by the key attribute, and honours cacheControl', async () => {
    const router = new FakeRouter();
    const { chat } = await start({ routers: { main: router }, cache: { ttl: '5m' } });
    await chat.chat(request, { attributes: { model_router_key: 'a' } });
    await chat.chat(request, { attributes: { model_router_key: 'b' } });
    expect(router.calls).toHaveLength(2);
    await chat.chat(request, { attributes: { model_router_key: 'a' }, cacheControl: 'no-cache' });
    expect(router.calls).toHaveLength(3);
  });

  it.each([
    [{ ttl: 'soon' }, 'cache.ttl must be a duration'],
    [{ ttl: '5m', routers: { other: false } }, 'cache.routers.other: no router of that name'],
    [{ ttl: '5m', semantic: { threshold: 0.9 } }, 'cache.semantic needs cache.embeddings'],
    [{ ttl: '5m', semantic: { threshold: 2 } }, 'cache.semantic.threshold must be a number'],
  ])('refuses %j at start, naming the field', async (cache, message) => {
    await expect(
      start({ routers: { main: new FakeRouter() }, cache: cache as never }),
    ).rejects.toThrow(message);
  });
});
