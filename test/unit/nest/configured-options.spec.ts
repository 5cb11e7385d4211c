import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { Test } from '@nestjs/testing';
import { parseModelRouterConfig } from '../../../src/config/load-model-router-config.js';
import { InMemoryRouteStateStore } from '../../../src/core/state/in-memory-route-state-store.js';
import { buildModelRouterOptions } from '../../../src/nest/config/build-model-router-options.js';
import { partsBuiltFromConfiguration } from '../../../src/nest/module/configured-options.js';
import { ModelRouterModule } from '../../../src/nest/module/model-router.module.js';
import { validateModuleOptions } from '../../../src/nest/module/validate-module-options.js';
import { testFactories } from '../config/test-factories.js';

async function built(state?: Record<string, unknown>) {
  const config = parseModelRouterConfig({
    models: { a: { type: 'echo' }, b: { type: 'echo' } },
    routers: { main: { models: ['a', 'b'] } },
    ...(state ? { state } : {}),
  });
  return buildModelRouterOptions(config, { factories: testFactories().factories });
}

function problemOf(check: () => void): string {
  try {
    check();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected the options to be rejected');
}

describe('options built from a validated configuration', () => {
  it('are not checked again by the module, as long as the built parts are kept', async () => {
    const options = await built({ type: 'memory' });
    expect(partsBuiltFromConfiguration(options)).toEqual({ names: true, stateStore: true });
    expect(Object.isFrozen(options.routers)).toBe(true);
    expect(Object.isFrozen(options.models)).toBe(true);
    // a spread that adds what code gives keeps the mark (the gateway adds its interceptor)
    expect(partsBuiltFromConfiguration({ ...options, interceptors: [] })).toEqual({
      names: true,
      stateStore: true,
    });
    expect(partsBuiltFromConfiguration({ routers: options.routers })).toEqual({
      names: false,
      stateStore: false,
    });
  });

  it('have every part given in code checked, with the wording of the schema', async () => {
    const options = await built();
    expect(() => validateModuleOptions(options)).not.toThrow();
    expect(problemOf(() => validateModuleOptions({ ...options, defaultRouter: 'nope' }))).toContain(
      "defaultRouter: unknown router 'nope'; known routers: 'main'",
    );
    expect(problemOf(() => validateModuleOptions({ ...options, routers: {} }))).toContain(
      'routers: at least one router is required',
    );
    expect(
      problemOf(() => validateModuleOptions({ ...options, interceptors: [42 as never] })),
    ).toContain('interceptors[0]: needs an intercept(context, next) method');
    expect(
      problemOf(() => validateModuleOptions({ ...options, stateStore: {} as never })),
    ).toContain('stateStore: not a RouteStateStore');
    // a store given to the builder in code is the caller's, not the configuration's
    const given = await buildModelRouterOptions(
      parseModelRouterConfig({
        models: { a: { type: 'echo' } },
        routers: { main: { model: 'a' } },
      }),
      { factories: testFactories().factories, stateStore: new InMemoryRouteStateStore() },
    );
    expect(partsBuiltFromConfiguration(given)).toEqual({ names: true, stateStore: false });
  });

  it("still meet forRootAsync's declared names", async () => {
    const options = await built();
    const moduleRef = Test.createTestingModule({
      imports: [
        ModelRouterModule.forRootAsync({ useFactory: () => options, routerNames: ['other'] }),
      ],
    });
    await expect(moduleRef.compile()).rejects.toThrow(
      "routerNames: 'other' is declared but the options factory returned no routers.other",
    );
    const started = await Test.createTestingModule({
      imports: [
        ModelRouterModule.forRootAsync({ useFactory: () => options, routerNames: ['main'] }),
      ],
    }).compile();
    await started.close();
  });
});
