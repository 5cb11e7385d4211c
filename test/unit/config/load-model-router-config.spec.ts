import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import {
  loadModelRouterConfig,
  parseModelRouterConfig,
} from '../../../src/config/load-model-router-config.js';
import { FIXTURES } from './test-factories.js';
import { problemsOf } from '../../support/config-problems.js';

describe('loadModelRouterConfig', () => {
  it('reads, interpolates and validates a complete file', () => {
    const config = loadModelRouterConfig(`${FIXTURES}/valid.yaml`, {
      env: { TEST_COOLDOWN_MS: '2500', TEST_CONTINUATION: 'true' },
    });
    expect(Object.keys(config.models)).toEqual(['quick-a', 'quick-b', 'deep', 'hosted']);
    expect(config.defaultRouter).toBe('support');
    const support = config.routers.support!;
    expect(support.decision).toMatchObject({
      type: 'keyword',
      keyword: 'design',
      minProbability: 0.5,
    });
    expect(support.routes?.[0]).toMatchObject({
      name: 'simple',
      models: ['quick-a', 'quick-b'],
      strategy: 'failover',
      // interpolated strings become numbers and booleans where the field is one
      cooldownMs: 2500,
    });
    expect(support.routes?.[1]?.description).toEqual([
      'System design',
      'Careful multi-step reasoning',
    ]);
    expect(config.routers.balanced).toMatchObject({
      strategy: 'lowest-token-usage',
      continuation: true,
    });
    expect(config.providers?.['local-openai']).toMatchObject({
      baseURL: 'http://127.0.0.1:9/v1',
      apiKey: 'sk-test-not-a-real-key-000',
    });
    expect(config.state).toEqual({ type: 'memory' });
  });

  it('lists every problem of an invalid file by path', () => {
    const problems = problemsOf(() =>
      loadModelRouterConfig(`${FIXTURES}/invalid.yaml`, { env: {} }),
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        "routers.default.routes[1].model: unknown model 'gpt-5'; known models: 'fast', 'untyped', 'orphan'",
        "routers.default.routes[2].name: more than one route named 'simple'",
        'routers.default.routes[2].description: must be a non-blank string',
        "routers.default.routes[2].models[1]: model 'fast' is listed twice",
        "routers.default.routes[2].cooldownMs: must be a duration such as '250ms', '20s', '5m' or '1h', or a whole number of milliseconds (0 or more)",
        'routers.default.routes[2].strategy: must be one of the following values: failover, lowest-token-usage',
        expect.stringMatching(
          /^routers\.default\.routes\[2\]\.cooldownMS: unknown setting; known: /,
        ),
        "routers.default.defaultRoute: unknown route 'medium'; known routes: 'simple', 'complex'",
        'routers.group: give either routes (a decision-routed router) or model/models (a model group), not both',
        "routers.fast: 'fast' is both a router and a model; give each a unique name",
        'models.untyped.type: required (or name a provider whose type the model takes)',
        "models.orphan.provider: unknown provider 'nowhere'; known providers: 'openai'",
        "defaultRouter: unknown router 'main'; known routers: 'default', 'group', 'fast'",
        expect.stringMatching(/^state\.type: must be 'redis' or 'memory'/),
      ]),
    );
    expect(problems).toHaveLength(14);
  });

  it('reports a YAML syntax error with its position but without echoing the file', () => {
    const problems = problemsOf(() => loadModelRouterConfig(`${FIXTURES}/broken.yaml`));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^\(yaml\): .+\(\d+:\d+\)$/);
  });

  it('names the variable and the path of each unset environment reference', () => {
    const problems = problemsOf(() =>
      loadModelRouterConfig(`${FIXTURES}/needs-env.yaml`, { env: {} }),
    );
    expect(problems).toEqual([
      'models.hosted.apiKey: environment variable TEST_REQUIRED_KEY is not set; set it or write ${TEST_REQUIRED_KEY:-default}',
      'models.hosted.headers[0].x-team: environment variable TEST_TEAM is not set; set it or write ${TEST_TEAM:-default}',
    ]);
  });

  it('tells how to point at another file when the file cannot be read', () => {
    const problems = problemsOf(() => loadModelRouterConfig(`${FIXTURES}/nope.yaml`));
    expect(problems[0]).toContain(
      `cannot read ${FIXTURES}/nope.yaml (ENOENT); set MODEL_ROUTER_CONFIG`,
    );
  });

  it('rejects a document that is not a mapping, and a mapping without routers', () => {
    expect(problemsOf(() => parseModelRouterConfig('- just\n- a list\n'))).toEqual([
      '(root): must be a mapping with models and routers',
    ]);
    expect(problemsOf(() => parseModelRouterConfig('models: {}\nrouters: {}\n'))).toEqual([
      'routers: at least one router is required',
    ]);
    expect(problemsOf(() => parseModelRouterConfig('models: {}\n'))).toEqual(['routers: required']);
  });

  it('checks the types of group settings, naming the field', () => {
    const problems = problemsOf(() =>
      parseModelRouterConfig({
        models: { a: { type: 'echo' } },
        routers: {
          main: {
            models: ['a'],
            cooldownMs: 'soon',
            halfOpenProbes: 0,
            jitter: 2,
            continuation: 'maybe',
            window: { durationMs: -5 },
          },
        },
      }),
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        "routers.main.cooldownMs: must be a duration such as '250ms', '20s', '5m' or '1h', or a whole number of milliseconds (0 or more)",
        'routers.main.halfOpenProbes: must not be less than 1',
        'routers.main.jitter: must not be greater than 1',
        'routers.main.continuation: must be a boolean value',
        "routers.main.window.durationMs: must be a duration such as '250ms', '20s', '5m' or '1h', or a whole number of milliseconds above 0",
      ]),
    );
  });
});
