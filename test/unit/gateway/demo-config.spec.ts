import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { demoGatewayConfig } from '../../../apps/gateway/src/config/demo-config.js';
import { loadGatewayConfig } from '../../../apps/gateway/src/config/load-gateway-config.js';
import { RoutingChatModel } from '../../../src/core/routing/routing-chat-model.js';
import { ModelRouter } from '../../../src/core/group/model-router.js';

/** What a router built from the demo configuration routes to: routes, examples, group models. */
function shape(router: unknown) {
  const routing = router as RoutingChatModel;
  return {
    defaultRoute: routing.defaultRoute(),
    routes: routing.routes().map((route) => ({
      ...route,
      models: (routing.routeModel(route.name) as ModelRouter).models().map((m) => m.name),
    })),
  };
}

describe('the demo configuration', () => {
  it('is the same in config/model-router.yaml and in code (routes, examples, groups)', async () => {
    const yaml = await loadGatewayConfig('config/model-router.yaml', { env: {} });
    const code = demoGatewayConfig();

    expect(Object.keys(yaml.module.models!)).toEqual(Object.keys(code.module.models!));
    expect(yaml.module.defaultRouter).toBe(code.module.defaultRouter);
    expect(shape(yaml.module.routers.auto)).toEqual(shape(code.module.routers.auto));
  });

  it('declares providers that stay disabled without keys, and Ollama', async () => {
    const yaml = await loadGatewayConfig('config/model-router.yaml', { env: {} });

    expect(Object.keys(yaml.providers!)).toEqual(['openai', 'anthropic', 'ollama']);
    expect(yaml.providers!.openai).toEqual({ disabled: expect.stringContaining('no apiKey') });
    expect(typeof yaml.providers!.ollama).toBe('function');
  });

  it('enables the OpenAI provider when OPENAI_API_KEY is set', async () => {
    const yaml = await loadGatewayConfig('config/model-router.yaml', {
      env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: 'http://127.0.0.1:1/v1' },
    });

    expect(typeof yaml.providers!.openai).toBe('function');
  });
});
