import { describe, expect, it } from '@jest/globals';
import type { ChatModel } from '../../../src/core/chat/chat-model.js';
import type { GatewayConfig } from '../../../apps/gateway/src/config/gateway-config.js';
import { gatewayMetricLabels } from '../../../apps/gateway/src/models/gateway-metric-labels.js';
import { failoverListName } from '../../../apps/gateway/src/models/failover-list-name.js';

const model = { chat: async () => ({ aiMessage: { role: 'assistant', text: '' } }) } as ChatModel;

const config: GatewayConfig = {
  module: {
    routers: { auto: model },
    models: { 'demo-pro': model, 'openai/pinned': model },
  },
  providers: {
    openai: { type: 'openai', apiKey: 'sk-test-000000000000' },
    ollama: () => model,
    off: { disabled: 'no key' },
  },
};

describe('gatewayMetricLabels', () => {
  const label = gatewayMetricLabels(config);

  it('folds provider/<model id> into provider/* for every declared provider', () => {
    expect(label('openai/gpt-4o-mini', 'model')).toBe('openai/*');
    expect(label('openai/any id a client invents', 'model')).toBe('openai/*');
    expect(label('ollama/llama3.2', 'model')).toBe('ollama/*');
    expect(label('off/x', 'model')).toBe('off/*');
  });

  it('labels every per-request failover list `failover`', () => {
    expect(label(failoverListName(['demo-pro', 'openai/gpt-4o']), 'model')).toBe('failover');
    expect(label(failoverListName(['a', 'b', 'c']), 'model')).toBe('failover');
  });

  it('keeps configured names, even one that looks like a provider model', () => {
    expect(label('auto', 'router')).toBe('auto');
    expect(label('demo-pro', 'model')).toBe('demo-pro');
    expect(label('openai/pinned', 'model')).toBe('openai/pinned');
    // route names and group members come from the configuration too
    expect(label('simple', 'route')).toBe('simple');
  });
});
