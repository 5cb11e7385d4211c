import { jest } from '@jest/globals';
import type { Capability } from '../../../../src/core/chat/capability.js';
import type { ChatModel, ChatStreamEvent } from '../../../../src/core/chat/chat-model.js';
import { userMessage } from '../../../../src/core/chat/messages.js';
import type { ChatRequest } from '../../../../src/core/chat/request.js';
import type { ChatResponse } from '../../../../src/core/chat/response.js';
import type { RoutingEvent } from '../../../../src/core/observability/routing-event.js';

export { deferred, type Deferred } from '../../../support/async.js';
export { fakeModel, type FakeModel } from '../../../support/fake-model.js';

export const request: ChatRequest = { messages: [userMessage('Hello')] };

export function answer(text: string, totalTokens?: number): ChatResponse {
  return totalTokens === undefined
    ? { aiMessage: { role: 'assistant', text } }
    : { aiMessage: { role: 'assistant', text }, tokenUsage: { totalTokens } };
}

/** A provider error of a given kind, as the resilience layer classifies it. */
export function kindError(kind: string, message = `${kind} failure`): Error {
  return Object.assign(new Error(message), { kind });
}

/** A streaming plain-object model: yields `events`; an Error in the list is thrown there. */
export function streamingModel(
  name: string,
  events: (ChatStreamEvent | Error)[],
  capabilities: Capability[] = [],
) {
  const model = {
    name,
    requests: [] as ChatRequest[],
    closed: 0,
    chat: jest.fn(async (): Promise<ChatResponse> => {
      throw new Error(`${name}: chat is not used in stream tests`);
    }),
    stream(req: ChatRequest): AsyncIterable<ChatStreamEvent> {
      model.requests.push(req);
      return (async function* () {
        try {
          for (const event of events) {
            if (event instanceof Error) throw event;
            yield event;
          }
        } finally {
          model.closed += 1;
        }
      })();
    },
    supportedCapabilities: () => new Set<Capability>(capabilities),
  };
  return model;
}

export const delta = (text: string): ChatStreamEvent => ({ type: 'text-delta', text });
export const complete = (text: string, totalTokens?: number): ChatStreamEvent => ({
  type: 'complete',
  response: answer(text, totalTokens),
});

export async function drain(stream: AsyncIterable<ChatStreamEvent>) {
  const events: ChatStreamEvent[] = [];
  try {
    for await (const event of stream) events.push(event);
    return { events, error: undefined as unknown };
  } catch (error) {
    return { events, error };
  }
}

export function textOf(events: ChatStreamEvent[]): string {
  return events.map((event) => (event.type === 'text-delta' ? event.text : '')).join('');
}

export function recorder() {
  const events: RoutingEvent[] = [];
  const observer = (event: RoutingEvent) => {
    events.push(event);
  };
  const ofType = <T extends RoutingEvent['type']>(type: T) =>
    events.filter((event): event is Extract<RoutingEvent, { type: T }> => event.type === type);
  return { events, observer, ofType };
}

/** A mutable clock for tests: `clock.now` is what `clock.fn()` returns. */
export function manualClock(start = 1_000_000) {
  const clock = {
    now: start,
    fn: () => clock.now,
    advance(ms: number) {
      clock.now += ms;
    },
  };
  return clock;
}

export type { ChatModel };
