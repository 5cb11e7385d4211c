// Fakes for the contract tests: plain objects and bare functions, as an external user would write.
import { jest } from '@jest/globals';
import type {
  ChatModelRouter,
  ChatModelRoutingRequest,
  ChatModelRoutingResult,
} from '../../src/index.js';

export { collect, deferred, type Deferred } from '../support/async.js';
export type { ChatFn, StreamFn } from '../support/chat-model-fns.js';
export {
  fakeModel,
  failingModel,
  withCapabilities,
  type FakeModel,
} from '../support/fake-model.js';

export type RouterFn = (
  request: ChatModelRoutingRequest,
) => ChatModelRoutingResult | Promise<ChatModelRoutingResult>;

/** A bare-function router as a jest mock. */
export function routerFn(answer: RouterFn): jest.Mock<RouterFn> {
  return jest.fn<RouterFn>(answer);
}

/** A router object whose `route` is a mock and whose `validate` is a mock. */
export function routerObject(answer: RouterFn): ChatModelRouter & {
  route: jest.Mock<RouterFn>;
  validate: jest.Mock<NonNullable<ChatModelRouter['validate']>>;
} {
  return {
    route: jest.fn<RouterFn>(answer),
    validate: jest.fn<NonNullable<ChatModelRouter['validate']>>(),
  };
}

/** Settles a promise into a value that can be compared without letting it reject. */
export async function outcome<T>(promise: Promise<T>) {
  return promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
}

/** Lets pending promise callbacks run (no timers involved). */
export async function flushMicrotasks(rounds = 10): Promise<void> {
  for (let i = 0; i < rounds; i += 1) await Promise.resolve();
}
