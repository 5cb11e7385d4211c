import { jest } from '@jest/globals';
import type { ChatModelRouterFunction } from '../../../../src/core/routing/chat-model-router.js';
import { ChatModelRoutingResult } from '../../../../src/core/routing/chat-model-routing-result.js';

export { collect, deferred } from '../../../support/async.js';
export type { ChatFn, StreamFn } from '../../../support/chat-model-fns.js';
export { fakeModel, withCapabilities, type FakeModel } from '../../../support/fake-model.js';

/** A router that always answers `ChatModelRoutingResult.route(name)`. */
export function routeTo(name: string): jest.Mock<ChatModelRouterFunction> {
  return jest.fn<ChatModelRouterFunction>(() => ChatModelRoutingResult.route(name));
}
