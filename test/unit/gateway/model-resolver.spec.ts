import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { BadRequestException, NotFoundException } from '@nestjs/common';
import { ModelResolver } from '../../../apps/gateway/src/models/model-resolver.js';
import { ProviderModels } from '../../../apps/gateway/src/models/provider-models.js';
import { UnknownModelException } from '../../../apps/gateway/src/openai/openai-error.js';
import type { ChatModel } from '../../../src/core/chat/chat-model.js';
import { InvalidConfigurationException } from '../../../src/core/errors/exceptions.js';
import { InMemoryRouteStateStore } from '../../../src/core/state/in-memory-route-state-store.js';
import { ModelRouter } from '../../../src/core/group/model-router.js';
import { OpenAiCompatibleChatModel } from '../../../src/providers/openai/openai-compatible-chat-model.js';
import { ResilientChatModel } from '../../../src/core/resilience/resilient-chat-model.js';
import { ModelRouterRegistry } from '../../../src/nest/module/model-router-registry.js';
import type { AdHocModel } from '../../../src/nest/service/ad-hoc-model.js';

const answering = (text: string): ChatModel => ({
  chat: async () => ({ aiMessage: { role: 'assistant', text } }),
});

function resolverWith(providers: ProviderModels = new ProviderModels()): ModelResolver {
  const registry = new ModelRouterRegistry({
    routers: { auto: answering('router') },
    models: { a: answering('a'), b: answering('b'), 'team/x': answering('slash') },
  });
  return new ModelResolver(registry, providers, {
    breaker: { cooldownMs: 1000 },
    store: new InMemoryRouteStateStore(),
  });
}

describe('ModelResolver', () => {
  it('maps router and model names to the service options', () => {
    const resolver = resolverWith();

    expect(resolver.resolve('auto')).toEqual({ router: 'auto' });
    expect(resolver.resolve('a')).toEqual({ model: 'a' });
    // an exact registered name wins over the provider/model-id reading
    expect(resolver.resolve('team/x')).toEqual({ model: 'team/x' });
  });

  it('builds a failover group over model, then models, without duplicates', async () => {
    const options = resolverWith().resolve('b', ['a', 'b']);

    const target = options.model as AdHocModel;
    expect(target.name).toBe('failover(b,a)');
    const group = target.model as ModelRouter;
    expect(group.models().map((m) => m.name)).toEqual(['b', 'a']);
    const response = await group.chat({ messages: [{ role: 'user', content: 'hi' }] });
    expect(response.aiMessage.text).toBe('b');
  });

  it('serves an empty list as no fallback: the model or router alone (issue 12)', () => {
    expect(resolverWith().resolve('a', [])).toEqual({ model: 'a' });
    expect(resolverWith().resolve('auto', [])).toEqual({ router: 'auto' });
  });

  it('serves a one-entry list as the model itself', () => {
    expect(resolverWith().resolve('a', ['a'])).toEqual({ model: 'a' });
  });

  it('names the offending field when a router is used in a failover list', () => {
    const resolver = resolverWith();

    expect(() => resolver.resolve('auto', ['a'])).toThrow(BadRequestException);
    expect(() => resolver.resolve('a', ['b', 'auto'])).toThrow("models[1]: 'auto' is a router");
  });

  it('throws UnknownModelException listing routers, models and provider patterns', () => {
    const providers = new ProviderModels({ local: () => answering('p') });
    const error = (() => {
      try {
        resolverWith(providers).resolve('nope');
      } catch (e) {
        return e as Error;
      }
    })();

    expect(error).toBeInstanceOf(UnknownModelException);
    expect(error?.message).toContain('auto, a, b, team/x, local/<model-id>');
  });
});

describe('ModelResolver.assertRouter (POST /chat)', () => {
  it('accepts a known router, or none when there is a default', () => {
    const resolver = resolverWith();

    expect(() => resolver.assertRouter('auto')).not.toThrow();
    // a single router is the default
    expect(() => resolver.assertRouter(undefined)).not.toThrow();
  });

  it('answers 404 for an unknown router and 400 when none is named and there is no default', () => {
    const registry = new ModelRouterRegistry({
      routers: { one: answering('1'), two: answering('2') },
    });
    const resolver = new ModelResolver(registry, new ProviderModels(), {
      breaker: {},
      store: new InMemoryRouteStateStore(),
    });

    expect(() => resolver.assertRouter('three')).toThrow(NotFoundException);
    expect(() => resolver.assertRouter(undefined)).toThrow(BadRequestException);
    expect(() => resolver.assertRouter(undefined)).toThrow('routers: one, two');
  });
});

describe('ModelResolver: the name a newcomer meant', () => {
  const messageOf = (resolver: ModelResolver, name: string) => {
    try {
      resolver.resolve(name);
    } catch (error) {
      expect(error).toBeInstanceOf(UnknownModelException);
      return (error as Error).message;
    }
    throw new Error(`expected '${name}' to be unknown`);
  };

  it("a provider's own model id suggests provider/model-id, when one provider serves it", () => {
    const providers = new ProviderModels(
      { openai: () => answering('o'), ollama: () => answering('l') },
      { allowedModels: { ollama: ['llama3*'] } },
    );
    expect(messageOf(resolverWith(providers), 'gpt-4o')).toMatch(
      /^The model 'gpt-4o' does not exist on this gateway \(did you mean 'openai\/gpt-4o'\?\)\. /,
    );
  });

  it('no provider guess when two could serve the id, or none', () => {
    const two = new ProviderModels({ openai: () => answering('o'), azure: () => answering('z') });
    expect(messageOf(resolverWith(two), 'gpt-4o')).not.toContain('did you mean');
    expect(messageOf(resolverWith(), 'gpt-4o')).not.toContain('did you mean');
  });

  it('a misspelt name is suggested before any provider', () => {
    const providers = new ProviderModels({ openai: () => answering('o') });
    expect(messageOf(resolverWith(providers), 'Auto')).toContain("(did you mean 'auto'?)");
  });
});

describe('ProviderModels', () => {
  it('creates a model per id once and reuses it', () => {
    let created = 0;
    const providers = new ProviderModels({
      p: (id) => {
        created++;
        return answering(id);
      },
    });

    const first = providers.get('p', 'm1');
    expect(providers.get('p', 'm1')).toBe(first);
    providers.get('p', 'm2');
    expect(created).toBe(2);
    expect(providers.get('unknown', 'm1')).toBeUndefined();
  });

  it('keeps at most 256 models, dropping the least recently used', () => {
    let created = 0;
    const providers = new ProviderModels({
      p: (id) => {
        created++;
        return answering(id);
      },
    });
    const keep = providers.get('p', 'keep');
    for (let i = 0; i < 300; i++) {
      providers.get('p', `m${i}`);
      providers.get('p', 'keep'); // used all along: never evicted
      providers.get('p', 'keep'); // already the newest: the order stands
    }

    expect(providers.get('p', 'keep')).toBe(keep);
    created = 0;
    providers.get('p', 'm0'); // evicted long ago: built again
    expect(created).toBe(1);
  });

  it('builds a declared provider like any configured model: its type, with resilience', () => {
    const providers = new ProviderModels({
      local: { type: 'openai', baseURL: 'http://127.0.0.1:1/v1', apiKey: 'sk-local-0000' },
      bare: {
        type: 'openai',
        baseURL: 'http://127.0.0.1:1/v1',
        apiKey: 'sk-local-0000',
        resilience: false,
      },
    });

    const model = providers.get('local', 'llama3.1');
    expect(model).toBeInstanceOf(ResilientChatModel);
    expect((model as ResilientChatModel).model).toBeInstanceOf(OpenAiCompatibleChatModel);
    expect(providers.get('bare', 'llama3.1')).toBeInstanceOf(OpenAiCompatibleChatModel);
  });

  it('disables a provider without a key, saying why, and rejects a bad declaration', () => {
    const providers = new ProviderModels({ openai: { type: 'openai', apiKey: '' } });

    expect(providers.get('openai', 'gpt-4o')).toBeUndefined();
    expect(providers.disabledReason('openai')).toContain("provider 'openai' has no apiKey");
    expect(() => new ProviderModels({ x: { type: 'gemini' as 'openai', apiKey: 'k' } })).toThrow(
      InvalidConfigurationException,
    );
    expect(() => new ProviderModels({ 'a/b': () => answering('x') })).toThrow("contain no '/'");
  });
});
