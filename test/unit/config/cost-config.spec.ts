import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { userMessage } from '../../../src/core/chat/messages.js';
import { COST_ATTRIBUTE } from '../../../src/core/cost/cost.js';
import { ModelRouter } from '../../../src/core/group/model-router.js';
import { buildModelRouterOptions } from '../../../src/nest/config/build-model-router-options.js';
import { InvalidModelRouterConfigException } from '../../../src/config/invalid-model-router-config.exception.js';
import { parseModelRouterConfig } from '../../../src/config/load-model-router-config.js';
import { testFactories } from './test-factories.js';

const yaml = (balance: string) => `
models:
  a: { type: echo, reply: a, pricing: { input: 1, output: 2 }, weight: 3, contextWindow: 8000, limits: { rpm: 100 } }
  b: { type: echo, reply: b, pricing: { input: 1, output: 2 } }
routers:
  pool: { models: [a, b], balance: ${balance} }
budgets:
  - { name: monthly, scope: { router: pool }, limitUsd: 50, period: 30d, warnAt: 0.8 }
`;

async function build(text: string) {
  const { factories } = testFactories();
  return buildModelRouterOptions(parseModelRouterConfig(text, { env: {} }), { factories });
}

async function problems(text: string): Promise<readonly string[]> {
  const error = await build(text).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InvalidModelRouterConfigException);
  return (error as InvalidModelRouterConfigException).problems;
}

describe('YAML: model profiles, balance and budgets', () => {
  it('profiles reach the group (not the provider factory), balance chooses the balancer, budgets the module', async () => {
    const options = await build(yaml('weighted'));
    const pool = options.routers.pool as ModelRouter;
    expect(pool.models()[0]!.metadata.get('profile')).toEqual({
      pricing: { input: 1, output: 2 },
      weight: 3,
      contextWindow: 8000,
      limits: { rpm: 100 },
    });
    const answers: string[] = [];
    for (let i = 0; i < 8; i++)
      answers.push((await pool.chat({ messages: [userMessage('hi')] })).aiMessage.text ?? '');
    expect(answers.filter((t) => t.startsWith('a:'))).toHaveLength(6); // 3 : 1
    expect(options.budgets).toEqual([
      { name: 'monthly', scope: { router: 'pool' }, limitUsd: 50, period: '30d', warnAt: 0.8 },
    ]);
  });

  it('every balancer name builds; strategy: lowest-token-usage keeps working', async () => {
    for (const balance of [
      'ordered',
      'least-busy',
      'lowest-latency',
      'lowest-cost',
      'lowest-token-usage',
    ]) {
      const options = await build(yaml(balance));
      const response = await options.routers.pool!.chat({ messages: [userMessage('hi')] });
      // echo reports 5 total tokens: priced as input (no split known)
      expect(response.aiMessage.attributes?.[COST_ATTRIBUTE]).toBe(0.000005);
    }
    const legacy = await build(
      yaml('ordered').replace('balance: ordered', 'strategy: lowest-token-usage'),
    );
    const pool = legacy.routers.pool as ModelRouter;
    await pool.chat({ messages: [userMessage('hi')] });
    expect((await pool.chat({ messages: [userMessage('hi')] })).aiMessage.text).toBe('b: hi');
  });

  it('reports bad profiles, balancers and budgets by path', async () => {
    const bad = `
models:
  a: { type: echo, pricing: { input: -1, output: 2 }, limits: { rpm: 0 }, weight: 0 }
routers:
  pool: { models: [a], balance: fastest }
budgets:
  - { name: x, limitUsd: 10, period: 1w }
`;
    const found = await problems(bad);
    expect(found).toEqual(
      expect.arrayContaining([
        expect.stringContaining('models.a.pricing.input: must be a price'),
        expect.stringContaining('routers.pool.balance: must be one of the following values'),
        expect.stringContaining('budgets[0].period: must be one of 1h, 1d, 7d, 30d'),
      ]),
    );
  });
});
