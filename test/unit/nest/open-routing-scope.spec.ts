import 'reflect-metadata';
import { afterEach, describe, expect, it } from '@jest/globals';
import { BadRequestException } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { lastValueFrom, toArray } from 'rxjs';
import type { ChatRequest } from '../../../src/core/chat/request.js';
import { SESSION_ATTRIBUTE } from '../../../src/core/chat/call-attributes.js';
import {
  MODEL_HEADER,
  openRoutingScope,
  ROUTE_HEADER,
  SESSION_HEADER,
  type ServedHeaders,
} from '../../../src/nest/http/open-routing-scope.js';
import {
  currentRoutingScope,
  httpRequestOfCall,
  routingScopeOf,
} from '../../../src/nest/http/request-routing-scope.js';
import { ModelRouterModule } from '../../../src/nest/module/model-router.module.js';
import {
  callContextOf,
  RoutingChatService,
} from '../../../src/nest/service/routing-chat.service.js';
import { FakeRouter } from './support/fake-routing.js';

const request: ChatRequest = { messages: [{ role: 'user', content: 'hello' }] };

let moduleRef: TestingModule | undefined;

afterEach(async () => {
  await moduleRef?.close();
  moduleRef = undefined;
});

async function twoRouters(): Promise<{ chat: RoutingChatService; a: FakeRouter; b: FakeRouter }> {
  const a = new FakeRouter('a');
  const b = new FakeRouter('b');
  b.events = [
    {
      type: 'route-selected',
      route: 'simple',
      isDefaultRoute: false,
      probabilities: { simple: 0.8 },
    },
    { type: 'model-succeeded', route: 'simple', model: 'model-a', attempt: 1 },
  ];
  moduleRef = await Test.createTestingModule({
    imports: [ModelRouterModule.forRoot({ routers: { a, b }, defaultRouter: 'a' })],
  }).compile();
  await moduleRef.init();
  return { chat: moduleRef.get(RoutingChatService), a, b };
}

/** A response's headers as a framework would hold them, until they are sent. */
function headerSink(): ServedHeaders & { headers: Record<string, string>; sent: boolean } {
  const sink = {
    headers: {} as Record<string, string>,
    sent: false,
    isHeadersSent: () => sink.sent,
    setHeader: (name: string, value: string) => {
      sink.headers[name] = value;
    },
  };
  return sink;
}

describe('openRoutingScope: a request scope passed to RoutingChatService, no AsyncLocalStorage', () => {
  it("gives the call the scope's router and session, attaches its record, and writes the headers", async () => {
    const { chat, a, b } = await twoRouters();
    const headers = headerSink();
    const httpRequest = { headers: { [SESSION_HEADER]: '  conv-1 ' } };
    const scope = openRoutingScope(httpRequest, headers, 'b');

    await chat.chat(request, { scope });

    expect(a.calls).toHaveLength(0);
    const [{ options }] = b.calls;
    expect(options.attributes?.[SESSION_ATTRIBUTE]).toBe('conv-1');
    expect(currentRoutingScope()).toBeUndefined();
    expect(scope.call).toBeDefined();
    expect(routingScopeOf(scope.call!)).toBe(scope);
    expect(httpRequestOfCall(scope.call!)).toBe(httpRequest);
    // the model's options lead back to the call's record (its route probability, for instance)
    expect(callContextOf(options)).toBe(scope.call);
    expect(callContextOf(options)?.probability).toBe(0.8);
    expect(headers.headers).toEqual({ [ROUTE_HEADER]: 'simple', [MODEL_HEADER]: 'model-a' });
  });

  it('serves a stream the same way, and writes no header once they were sent', async () => {
    const { chat, b } = await twoRouters();
    b.streamEvents = [
      { type: 'complete', response: { aiMessage: { role: 'assistant', text: 'x' } } },
    ];
    const headers = headerSink();
    headers.sent = true;
    const scope = openRoutingScope({ headers: {} }, headers);

    const events = await lastValueFrom(
      chat.stream(request, { scope, router: 'b' }).pipe(toArray()),
    );

    expect(events.at(-1)?.type).toBe('complete');
    expect(routingScopeOf(scope.call!)).toBe(scope);
    expect(scope.route).toBe('simple');
    expect(headers.headers).toEqual({});
  });

  it('refuses a session header longer than 256 characters (400), and ignores a blank one', () => {
    expect(() =>
      openRoutingScope({ headers: { [SESSION_HEADER]: 'x'.repeat(257) } }, undefined),
    ).toThrow(BadRequestException);
    expect(
      openRoutingScope({ headers: { [SESSION_HEADER]: '   ' } }, undefined).session,
    ).toBeUndefined();
    expect(
      openRoutingScope({ headers: { [SESSION_HEADER]: ['s-1', 's-2'] } }, undefined).session,
    ).toBe('s-1');
  });

  it('maps a checked session through sessionKey, which may also drop it', () => {
    const withSession = { headers: { [SESSION_HEADER]: ' s-1 ' } };
    const seen: string[] = [];
    const keyed = openRoutingScope(withSession, undefined, undefined, (session) => {
      seen.push(session);
      return `team-a:${session}`;
    });
    expect(keyed.session).toBe('team-a:s-1');
    expect(seen).toEqual(['s-1']);
    expect(
      openRoutingScope(withSession, undefined, undefined, () => undefined).session,
    ).toBeUndefined();
    // never asked without a session, nor for one that is refused
    expect(
      openRoutingScope({ headers: {} }, undefined, undefined, () => 'x').session,
    ).toBeUndefined();
    expect(() =>
      openRoutingScope(
        { headers: { [SESSION_HEADER]: 'x'.repeat(257) } },
        undefined,
        undefined,
        () => 'x',
      ),
    ).toThrow(BadRequestException);
  });
});
