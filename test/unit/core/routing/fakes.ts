import { jest } from '@jest/globals';
import type { Capability } from '../../../../src/core/chat/capability.js';
import type { ChatModelRouterFunction } from '../../../../src/core/routing/chat-model-router.js';
import { ChatModelRoutingResult } from '../../../../src/core/routing/chat-model-routing-result.js';
import type { ChatFn } from '../../../support/chat-model-fns.js';

export { collect, deferred } from '../../../support/async.js';
export type { ChatFn, StreamFn } from '../../../support/chat-model-fns.js';

export interface FakeModel {
  chat: jest.Mock<ChatFn>;
  supportedCapabilities?: () => ReadonlySet<Capability>;
}

/** A plain-object ChatModel answering `text`, optionally declaring capabilities. */
export function fakeModel(text: string, capabilities?: Capability[]): FakeModel {
  const model: FakeModel = {
    chat: jest.fn<ChatFn>(async () => ({
      aiMessage: { role: 'assistant', text },
      modelName: `${text}-model`,
    })),
  };
  if (capabilities) model.supportedCapabilities = () => new Set(capabilities);
  return model;
}

/** A router that always answers `ChatModelRoutingResult.route(name)`. */
export function routeTo(name: string): jest.Mock<ChatModelRouterFunction> {
  return jest.fn<ChatModelRouterFunction>(() => ChatModelRoutingResult.route(name));
}
