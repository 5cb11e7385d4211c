import 'reflect-metadata';
import { afterEach, describe, expect, it } from '@jest/globals';
import { Test, type TestingModule } from '@nestjs/testing';
import type { ChatRequest } from '../../../src/core/chat/request.js';
import type { ChatCallEnd, ChatCallHooks } from '../../../src/nest/interceptors/chat-call-hooks.js';
import type { ChatInterceptor } from '../../../src/nest/interceptors/chat-interceptor.js';
import { ChatInterceptorChain } from '../../../src/nest/interceptors/chat-interceptor-chain.js';
import { ChatInterceptorContext } from '../../../src/nest/interceptors/chat-interceptor-context.js';
import { ModelRouterModule } from '../../../src/nest/module/model-router.module.js';
import type { ModelRouterModuleOptions } from '../../../src/nest/module/model-router-module-options.js';
import { runHookedChat } from '../../../src/nest/service/hooked-chat-call.js';
import { RoutingChatService } from '../../../src/nest/service/routing-chat.service.js';
import { FakeRouter, response } from './support/fake-routing.js';

const request: ChatRequest = { messages: [{ role: 'user', content: 'hello' }] };

function context(now = () => 0): ChatInterceptorContext {
  return new ChatInterceptorContext({
    mode: 'chat',
    request,
    attributes: {},
    signal: new AbortController().signal,
    clock: now,
  });
}

function recording(label: string, trace: string[], fail?: 'start' | 'end'): ChatCallHooks {
  return {
    start: () => {
      trace.push(`${label}:start`);
      if (fail === 'start') throw new Error(`${label} start failed`);
    },
    end: (_, end: ChatCallEnd) => {
      trace.push(`${label}:${end.outcome}`);
      if (fail === 'end') throw new Error(`${label} end failed`);
    },
  };
}

describe('a chat() call through interceptor hooks', () => {
  it('starts the hooks outermost first and ends them innermost first, once', async () => {
    const trace: string[] = [];
    let released = 0;
    const answer = response('hi');
    const result = await runHookedChat(
      [recording('outer', trace), recording('inner', trace)],
      context(),
      undefined,
      async () => answer,
      () => released++,
    );
    expect(result).toBe(answer);
    expect(trace).toEqual(['outer:start', 'inner:start', 'inner:ok', 'outer:ok']);
    expect(released).toBe(1);
  });

  it("the model's error ends every hook as an error and rejects with it", async () => {
    const trace: string[] = [];
    const failure = new Error('provider down');
    await expect(
      runHookedChat(
        [recording('outer', trace)],
        context(),
        undefined,
        () => Promise.reject(failure),
        () => {},
      ),
    ).rejects.toBe(failure);
    expect(trace).toEqual(['outer:start', 'outer:error']);
  });

  it('a hook that throws in start fails the call: inner hooks never start, outer ones end', async () => {
    const trace: string[] = [];
    let called = false;
    await expect(
      runHookedChat(
        [recording('outer', trace), recording('middle', trace, 'start'), recording('inner', trace)],
        context(),
        undefined,
        async () => {
          called = true;
          return response('x');
        },
        () => {},
      ),
    ).rejects.toThrow('middle start failed');
    expect(called).toBe(false);
    expect(trace).toEqual(['outer:start', 'middle:start', 'outer:error']);
  });

  it('a hook that throws in end turns the outcome into its error for the outer hooks', async () => {
    const trace: string[] = [];
    await expect(
      runHookedChat(
        [recording('outer', trace), recording('inner', trace, 'end')],
        context(),
        undefined,
        async () => response('x'),
        () => {},
      ),
    ).rejects.toThrow('inner end failed');
    expect(trace).toEqual(['outer:start', 'inner:start', 'inner:ok', 'outer:error']);
  });

  it("the caller's abort settles at once with its reason, as cancelled, though the model ignores it", async () => {
    const trace: string[] = [];
    const caller = new AbortController();
    const reason = new Error('client left');
    let finishModel: ((value: ReturnType<typeof response>) => void) | undefined;
    const pending = runHookedChat(
      [recording('outer', trace)],
      context(),
      caller.signal,
      () => new Promise((resolve) => (finishModel = resolve)),
      () => {},
    );
    caller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    finishModel?.(response('too late'));
    await Promise.resolve();
    expect(trace).toEqual(['outer:start', 'outer:cancelled']);
  });
});

describe('RoutingChatService chooses the hooks only when every interceptor has them', () => {
  let moduleRef: TestingModule | undefined;
  afterEach(async () => {
    await moduleRef?.close();
    moduleRef = undefined;
  });

  async function start(options: ModelRouterModuleOptions) {
    moduleRef = await Test.createTestingModule({
      imports: [ModelRouterModule.forRoot(options)],
    }).compile();
    await moduleRef.init();
    return { chat: moduleRef.get(RoutingChatService), chain: moduleRef.get(ChatInterceptorChain) };
  }

  it('built-ins only: hooks; the call is timed and answers as through the chain', async () => {
    const { chat, chain } = await start({ routers: { main: new FakeRouter() } });
    expect(chain.hooks()).toHaveLength(chain.list().length);
    const answer = await chat.chat(request);
    expect(answer.aiMessage.text).toBe('simple/model-a');
  });

  it('an interceptor of your own (no hooks): every call goes through its intercept', async () => {
    let intercepted = 0;
    const own: ChatInterceptor = {
      intercept(_, next) {
        intercepted++;
        return next.handle();
      },
    };
    const { chat, chain } = await start({
      routers: { main: new FakeRouter() },
      interceptors: [own],
    });
    expect(chain.hooks()).toBeUndefined();
    await chat.chat(request);
    expect(intercepted).toBe(1);
  });
});
