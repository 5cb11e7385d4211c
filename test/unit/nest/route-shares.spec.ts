import 'reflect-metadata';
import { afterAll, describe, expect, it } from '@jest/globals';
import { Test, type TestingModule } from '@nestjs/testing';
import { Registry } from 'prom-client';
import { userMessage } from '../../../src/core/chat/messages.js';
import { DecisionModelChatModelRouter } from '../../../src/core/decision/decision-model-chat-model-router.js';
import { RoutingChatModel } from '../../../src/core/routing/routing-chat-model.js';
import { ModelRouterModule } from '../../../src/nest/module/model-router.module.js';
import { ModelRouterRegistry } from '../../../src/nest/module/model-router-registry.js';
import { RoutingChatService } from '../../../src/nest/service/routing-chat.service.js';
import { ModelRouterMetricsModule } from '../../../src/metrics.js';
import { valueOf } from './metrics/support/metric-values.js';

/** The status page's and metrics' view of a decision router's targetShare. */
describe('route shares in the module', () => {
  let moduleRef: TestingModule;
  afterAll(() => moduleRef?.close());

  it('the registry reports each target share, and the gauge shows target and achieved', async () => {
    let i = 0;
    // every fourth message is judged complex: a natural share of 0.25
    const decide = async () => {
      const complex = i++ % 4 === 0 ? 0.9 : 0.1 + (i % 7) / 100;
      return {
        value: complex > 0.5 ? 'complex' : 'simple',
        probabilities: { simple: 1 - complex, complex },
      };
    };
    const smart = new RoutingChatModel({
      routes: [
        {
          name: 'simple',
          model: { chat: async () => ({ aiMessage: { role: 'assistant', text: 's' } }) },
        },
        {
          name: 'complex',
          model: { chat: async () => ({ aiMessage: { role: 'assistant', text: 'c' } }) },
        },
      ],
      router: new DecisionModelChatModelRouter({ decide }, { targetShare: { complex: 0.1 } }),
      defaultRoute: 'simple',
    });
    const registry = new Registry();
    moduleRef = await Test.createTestingModule({
      imports: [
        ModelRouterModule.forRoot({ routers: { smart } }),
        ModelRouterMetricsModule.forRoot({ registry }),
      ],
    }).compile();
    await moduleRef.init();
    const service = moduleRef.get(RoutingChatService);
    for (let n = 0; n < 200; n++) await service.chat({ messages: [userMessage(`q${n}`)] });
    const [share] = moduleRef.get(ModelRouterRegistry).routeShares();
    expect(share).toMatchObject({ router: 'smart', route: 'complex', target: 0.1, samples: 200 });
    expect(share!.achieved).toBeLessThan(0.2);
    const labels = { router: 'smart', route: 'complex' };
    expect(await valueOf(registry, 'model_router_route_share', { ...labels, kind: 'target' })).toBe(
      0.1,
    );
    expect(
      await valueOf(registry, 'model_router_route_share', { ...labels, kind: 'achieved' }),
    ).toBe(share!.achieved);
  });
});
