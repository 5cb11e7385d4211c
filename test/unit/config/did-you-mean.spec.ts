// A newcomer's typo in the YAML: the error names the field, what is known, and the name they most
// likely meant; a build problem names the file; a missing key says which variable to set.
import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { closestName } from '../../../src/core/errors/closest-name.js';
import { parseModelRouterConfig } from '../../../src/config/load-model-router-config.js';
import { buildModelRouterOptions } from '../../../src/nest/config/build-model-router-options.js';
import { OpenAiCompatibleChatModel } from '../../../src/providers/openai/openai-compatible-chat-model.js';
import { problemsOfAsync as problemsOf } from '../../support/config-problems.js';

const route = (settings: Record<string, unknown>) => ({
  models: { mini: { type: 'demo' }, large: { type: 'demo' } },
  routers: { auto: { routes: [{ name: 'simple', models: ['mini'], ...settings }] } },
});

describe('closestName', () => {
  it.each([
    ['descripton', ['name', 'description', 'examples'], 'description'],
    ['openia', ['openai', 'anthropic', 'demo'], 'openai'],
    ['cooldownMS', ['cooldownMs', 'failureThreshold'], 'cooldownMs'],
    ['model', ['providers', 'models', 'routers'], 'models'],
    ['gpt4o', ['gpt-4o', 'gpt-4o-mini'], 'gpt-4o'],
    ['Auto', ['auto', 'demo-mini'], 'auto'],
    ['dmeo', ['openai', 'demo'], 'demo'],
    ['API', ['api', 'app'], 'api'],
  ])('%p among %p: did you mean %p?', (typed, known, meant) => {
    expect(closestName(typed, known)).toBe(meant);
  });

  it.each([
    ['nope', ['auto']],
    // short names: one letter is most of the name
    ['b', ['a']],
    ['gpt', ['gpu']],
    ['mni', ['mini']],
    ['colour', ['origins']],
    ['ghost', ['good']],
    ['medium', ['simple', 'complex']],
    // two equally close names: no guess
    ['demo-x', ['demo-a', 'demo-b']],
  ])('suggests nothing for %p among %p', (typed, known) => {
    expect(closestName(typed, known)).toBeUndefined();
  });
});

describe('configuration errors for a typo', () => {
  it('an unknown setting names the known ones and the one that was meant', async () => {
    const problems = await problemsOf(() =>
      parseModelRouterConfig(route({ descripton: 'short questions' }), { env: {} }),
    );
    expect(problems).toEqual([
      expect.stringMatching(
        /^routers\.auto\.routes\[0\]\.descripton: unknown setting; known: .*description.*; did you mean 'description'\?$/,
      ),
    ]);
  });

  it('two unknown settings in one place get no guess that fits only one of them', async () => {
    const problems = await problemsOf(() =>
      parseModelRouterConfig(route({ descripton: 'x', colour: 'blue' }), { env: {} }),
    );
    expect(problems).toHaveLength(2);
    for (const problem of problems) expect(problem).not.toContain('did you mean');
  });

  it('a mistyped top-level section', async () => {
    const { models, ...rest } = route({});
    const problems = await problemsOf(() =>
      parseModelRouterConfig({ ...rest, model: models }, { env: {} }),
    );
    expect(problems).toContainEqual(
      expect.stringMatching(
        /^model: unknown setting; known: providers, models, .*; did you mean 'models'\?$/,
      ),
    );
  });

  it('an unknown model in a route', async () => {
    const problems = await problemsOf(() =>
      parseModelRouterConfig(route({ models: ['mnii'] }), { env: {} }),
    );
    expect(problems).toEqual([
      "routers.auto.routes[0].models[0]: unknown model 'mnii'; known models: 'mini', 'large'; did you mean 'mini'?",
    ]);
  });

  it('an unknown model type, found while building, names the file it came from', async () => {
    const config = parseModelRouterConfig(
      { models: { mini: { type: 'dmeo' } }, routers: { auto: { models: ['mini'] } } },
      { env: {} },
    );
    let message = '';
    try {
      await buildModelRouterOptions(config, { source: 'config/mine.yaml' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe(
      'Invalid model router configuration (config/mine.yaml):\n' +
        "  - models.mini.type: unknown model type 'dmeo'; registered types: openai, anthropic, demo; did you mean 'demo'?",
    );
  });
});

describe('a model without a key', () => {
  it('says which variable to set or which setting to give, in code and YAML alike', () => {
    const saved = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      expect(() => new OpenAiCompatibleChatModel({ model: 'gpt-4o-mini' })).toThrow(
        "OpenAiCompatibleChatModel 'gpt-4o-mini': no apiKey given and OPENAI_API_KEY is not set; " +
          'set OPENAI_API_KEY or give the model an apiKey (a local server such as Ollama needs ' +
          'none: give its baseURL, leave apiKey out)',
      );
    } finally {
      if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
    }
  });
});
