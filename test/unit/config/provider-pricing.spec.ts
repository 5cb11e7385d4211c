import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { configuredProfile } from '../../../src/config/cost-config.js';
import { InvalidModelRouterConfigException } from '../../../src/config/invalid-model-router-config.exception.js';
import { parseModelRouterConfig } from '../../../src/config/load-model-router-config.js';
import {
  type ProviderFactory,
  providerModelSource,
} from '../../../src/config/provider-model-source.js';
import type { ModelRouter } from '../../../src/core/group/model-router.js';
import { buildModelRouterOptions } from '../../../src/nest/config/build-model-router-options.js';
import { gatewayConfigSchema } from '../../../apps/gateway/src/config/gateway-config-schema.js';
import { testFactories } from './test-factories.js';

const PROVIDER_PRICE = { input: 1, output: 2 };
const OWN_PRICE = { input: 5, output: 6 };
/** A local OpenAI-compatible server (no key): models are built, never called. */
const LOCAL = { type: 'openai', baseURL: 'http://127.0.0.1:9/v1' };

function problemsOf(parse: () => unknown): readonly string[] {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidModelRouterConfigException);
    return (error as InvalidModelRouterConfigException).problems;
  }
  throw new Error('the configuration was accepted');
}

describe('a provider’s pricing (issue 24, point 3)', () => {
  it('is the price of configured models that name the provider and have none of their own', async () => {
    const config = parseModelRouterConfig(
      {
        providers: { echoes: { type: 'echo', pricing: PROVIDER_PRICE } },
        models: {
          inherits: { provider: 'echoes' },
          own: { provider: 'echoes', pricing: OWN_PRICE, contextWindow: 8000 },
        },
        routers: { pool: { models: ['inherits', 'own'] } },
      },
      { env: {} },
    );
    // the echo factory refuses settings it does not know: pricing never reaches it
    const options = await buildModelRouterOptions(config, { factories: testFactories().factories });
    const [inherits, own] = (options.routers.pool as ModelRouter).models();
    expect(inherits!.metadata.get('profile')).toEqual({ pricing: PROVIDER_PRICE });
    expect(own!.metadata.get('profile')).toEqual({ pricing: OWN_PRICE, contextWindow: 8000 });
  });

  it('lets a configured model ask to be refused under a budget while it has no price', async () => {
    const options = await buildModelRouterOptions(strictModel('refuse'), {
      factories: testFactories().factories,
    });
    expect((options.routers.r as ModelRouter).models()[0]!.metadata.get('profile')).toEqual({
      unpricedUnderBudget: 'refuse',
    });
    expect(problemsOf(() => strictModel('never'))).toEqual([
      expect.stringMatching(/^models\.strict\.unpricedUnderBudget: must be 'refuse' or 'allow'/),
    ]);
  });

  it('prices provider/model-id models: the model’s own price, else the provider’s', () => {
    const source = providerModelSource(
      'echoes',
      { ...LOCAL, pricing: PROVIDER_PRICE },
      testFactories().factories,
      undefined,
      { pricingOf: (id) => (id === 'big' ? OWN_PRICE : undefined) },
    ) as ProviderFactory;
    expect(configuredProfile(source('big'))).toEqual({
      pricing: OWN_PRICE,
      unpricedUnderBudget: 'refuse',
    });
    expect(configuredProfile(source('small'))?.pricing).toEqual(PROVIDER_PRICE);
  });

  it('leaves a model with no price known to be refused under a budget, unless allowed', () => {
    const { factories } = testFactories();
    const refuse = providerModelSource('echoes', LOCAL, factories) as ProviderFactory;
    expect(configuredProfile(refuse('any'))).toEqual({ unpricedUnderBudget: 'refuse' });
    const allow = providerModelSource('echoes', LOCAL, factories, undefined, {
      unpricedUnderBudget: 'allow',
    }) as ProviderFactory;
    expect(configuredProfile(allow('any'))).toEqual({ unpricedUnderBudget: 'allow' });
  });

  it('and unpricedUnderBudget are checked by path', () => {
    const problems = problemsOf(() =>
      parseModelRouterConfig(
        {
          providers: { p: { type: 'openai', pricing: { input: -1, output: 'x', extra: 1 } } },
          models: { m: { provider: 'p', model: 'gpt-4o' } },
          routers: { r: { model: 'm' } },
          unpricedUnderBudget: 'maybe',
        },
        { env: {} },
      ),
    );
    expect(problems.some((p) => p.startsWith('providers.p.pricing.input'))).toBe(true);
    expect(problems.some((p) => p.startsWith('providers.p.pricing.output'))).toBe(true);
    expect(problems.some((p) => p.startsWith('unpricedUnderBudget'))).toBe(true);
  });
});

/** A file with one configured model `strict`, without a price. */
function strictModel(unpricedUnderBudget: string) {
  return parseModelRouterConfig(
    {
      models: { strict: { type: 'echo', unpricedUnderBudget } },
      routers: { r: { model: 'strict' } },
    },
    { env: {} },
  );
}

/** A gateway file whose provider `p` lists `models`. */
function parseGateway(models: unknown) {
  return parseModelRouterConfig(
    {
      providers: { p: { type: 'openai', models } },
      models: { m: { type: 'demo' } },
      routers: { r: { model: 'm' } },
    },
    { env: {}, schema: gatewayConfigSchema },
  );
}

describe('the gateway’s providers.<name>.models', () => {
  it('is a list of ids or globs, or a mapping from id or glob to its pricing', () => {
    expect(parseGateway(['gpt-4o*']).providers!.p!.models).toEqual(['gpt-4o*']);
    const mapping = { 'gpt-4o': { pricing: OWN_PRICE }, 'gpt-4o-mini*': null };
    expect(parseGateway(mapping).providers!.p!.models).toEqual(mapping);
  });

  it('refuses anything else, saying what it may be', () => {
    for (const models of ['gpt-4o', [1], { 'gpt-4o': 3 }]) {
      const problems = problemsOf(() => parseGateway(models));
      expect(problems).toEqual([expect.stringMatching(/^providers\.p\.models: must be a list/)]);
    }
    // a mapping's wrong setting is named by its path
    expect(problemsOf(() => parseGateway({ 'gpt-4o': { price: 1 } }))).toEqual([
      'providers.p.models.gpt-4o.price: unknown setting; known: pricing',
    ]);
    expect(
      problemsOf(() => parseGateway({ 'gpt-4o': { pricing: { input: -1, output: 1 } } })),
    ).toEqual([expect.stringMatching(/^providers\.p\.models\.gpt-4o\.pricing\.input: /)]);
  });
});
