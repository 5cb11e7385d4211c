import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { gatewayConfigSchema } from '../../../apps/gateway/src/config/gateway-config-schema.js';
import {
  loadModelRouterConfig,
  parseModelRouterConfig,
} from '../../../src/config/load-model-router-config.js';
import { validateModuleOptions } from '../../../src/nest/module/validate-module-options.js';
import { FakeRouter } from '../nest/support/fake-routing.js';
import { FIXTURES } from './test-factories.js';
import { problemsOf } from '../../support/config-problems.js';

/** The library's part of a file: one provider, one model, one router. */
const LIBRARY = {
  providers: { fake: { type: 'openai', baseURL: 'http://127.0.0.1:1/v1', apiKey: 'k' } },
  models: { mini: { provider: 'fake', model: 'gpt-4o-mini' } },
  routers: { auto: { models: ['mini'] } },
};

const library = (file: Record<string, unknown>) =>
  problemsOf(() => parseModelRouterConfig({ ...LIBRARY, ...file }, { env: {} }));
const gateway = (file: Record<string, unknown>) =>
  problemsOf(() =>
    parseModelRouterConfig({ ...LIBRARY, ...file }, { env: {}, schema: gatewayConfigSchema }),
  );
const key = (settings: Record<string, unknown>) => ({
  auth: { keys: [{ name: 'team', key: 'sk-team-key-0123456789', ...settings }] },
});

/** The problems of the invalid fixture, read with the library's schema or the gateway's. */
const readInvalid = (schema?: typeof gatewayConfigSchema) =>
  problemsOf(() =>
    loadModelRouterConfig(`${FIXTURES}/invalid.yaml`, { env: {}, ...(schema && { schema }) }),
  );

/** The sentence after a problem's path. */
const wording = (problem: string | undefined) => problem?.slice(problem.indexOf(': ') + 2);

describe('one wording per configuration fault, whichever section it sits in', () => {
  it('a name that refers to no router: library, gateway section and module options', () => {
    const inLibrary = library({ defaultRouter: 'nope' });
    const inGateway = gateway(key({ routers: ['nope'] }));
    let inModule = '';
    try {
      validateModuleOptions({ routers: { auto: new FakeRouter() }, defaultRouter: 'nope' });
    } catch (error) {
      inModule = (error as Error).message;
    }
    expect(inLibrary).toEqual(["defaultRouter: unknown router 'nope'; known routers: 'auto'"]);
    expect(inGateway).toEqual([
      "auth.keys[0].routers[0]: unknown router 'nope'; known routers: 'auto'",
    ]);
    expect(inModule).toContain(`defaultRouter: ${wording(inLibrary[0])}`);
  });

  it('a name used by a router and a model: in the file and in module options', () => {
    const inFile = library({
      models: { mini: LIBRARY.models.mini, auto: { type: 'openai', model: 'x' } },
    });
    let inModule = '';
    try {
      validateModuleOptions({
        routers: { auto: new FakeRouter() },
        models: { auto: new FakeRouter() },
      });
    } catch (error) {
      inModule = (error as Error).message;
    }
    expect(inFile).toEqual([
      "routers.auto: 'auto' is both a router and a model; give each a unique name",
    ]);
    expect(inModule).toContain(inFile[0]);
  });

  it('a name that refers to no model or provider', () => {
    expect(library({ routers: { auto: { model: 'ghost' } } })).toEqual([
      "routers.auto.model: unknown model 'ghost'; known models: 'mini'",
    ]);
    expect(gateway(key({ models: ['ghost'] }))).toEqual([
      expect.stringMatching(
        /^auth\.keys\[0\]\.models\[0\]: unknown model 'ghost'; known models: 'mini', /,
      ),
    ]);
    expect(library({ models: { mini: { provider: 'other' } } })).toEqual([
      "models.mini.provider: unknown provider 'other'; known providers: 'fake'",
    ]);
    expect(gateway(key({ providerModels: ['other/x'] }))).toEqual([
      "auth.keys[0].providerModels[0]: unknown provider 'other'; known providers: 'fake'",
    ]);
  });

  it('an unknown key names its path and the keys known there', () => {
    const problems = [
      ...library({ routers: { auto: { models: ['mini'], colour: 'red' } } }),
      ...library({ failoverLists: { colour: 'red' } }),
      ...gateway(key({ colour: 'red' })),
      ...gateway({ cors: { origins: ['*'], colour: 'red' } }),
    ];
    expect(problems).toEqual([
      expect.stringMatching(/^routers\.auto\.colour: unknown setting; known: model, models, /),
      expect.stringMatching(/^failoverLists\.colour: unknown setting; known: cooldownMs, /),
      expect.stringMatching(/^auth\.keys\[0\]\.colour: unknown setting; known: name, key, /),
      'cors.colour: unknown setting; known: origins',
    ]);
  });

  it('a missing field is reported as required, not as every bound it would fail', () => {
    expect(library({ routers: { auto: { routes: [{ model: 'mini' }] } } })).toEqual([
      'routers.auto.routes[0].name: required',
    ]);
    expect(library({ providers: { fake: { baseURL: 'http://127.0.0.1:1/v1' } } })).toEqual([
      'providers.fake.type: required',
    ]);
    expect(gateway({ auth: { keys: [{ key: 'sk-team-key-0123456789' }] } })).toEqual([
      'auth.keys[0].name: required',
    ]);
    expect(gateway(key({ budget: { period: '1d' } }))).toEqual([
      'auth.keys[0].budget.limitUsd: required',
    ]);
  });

  it('a section of the wrong shape is one problem, not one per name that refers to it', () => {
    expect(library({ models: 'x' })).toEqual(['models: must be a mapping']);
    expect(library({ defaultRouter: '' })).toEqual(['defaultRouter: must not be empty']);
    expect(gateway({ auth: { keys: 'x' } })).toEqual(['auth.keys: must be a list']);
  });

  it('numbers and choices: the same sentence for a group setting and a key limit', () => {
    const inLibrary = library({
      routers: { auto: { models: ['mini'], failureThreshold: 'soon', halfOpenProbes: 0 } },
    });
    const inGateway = gateway(key({ rpm: 'soon', tpm: 0 }));
    expect(inLibrary).toEqual([
      'routers.auto.failureThreshold: must be an integer number',
      'routers.auto.halfOpenProbes: must not be less than 1',
    ]);
    expect(inGateway).toEqual([
      'auth.keys[0].rpm: must be an integer number',
      'auth.keys[0].tpm: must not be less than 1',
    ]);
    expect(library({ routers: { auto: { models: ['mini'], strategy: 'random' } } })).toEqual([
      'routers.auto.strategy: must be one of the following values: failover, lowest-token-usage',
    ]);
    expect(gateway(key({ budget: { limitUsd: 5, period: 'monthly' } }))).toEqual([
      'auth.keys[0].budget.period: must be one of the following values: 1h, 1d, 7d, 30d',
    ]);
  });

  it("the library's faults read the same through the gateway's schema", () => {
    const problems = readInvalid();
    expect(problems).toHaveLength(14);
    expect(readInvalid(gatewayConfigSchema)).toEqual(problems);
  });

  it("interpolates ${ENV} in the gateway's sections as in the library's", () => {
    const config = parseModelRouterConfig(
      { ...LIBRARY, routers: { auto: { models: ['mini'], cooldownMs: '${COOLDOWN}' } } },
      { env: { COOLDOWN: '2500' } },
    );
    const withKey = parseModelRouterConfig(
      { ...LIBRARY, ...key({ rpm: '${RPM}' }) },
      { env: { RPM: '60' }, schema: gatewayConfigSchema },
    );
    expect(config.routers.auto?.cooldownMs).toBe(2500);
    expect(withKey.auth).toEqual({ keys: [expect.objectContaining({ rpm: 60 })] });
  });
});
