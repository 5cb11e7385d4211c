// The README's cost, limits and budgets example must stay valid: parsed and built as a user would.
import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { MODEL_PROFILE } from '../../../src/core/index.js';
import {
  buildModelRouterOptions,
  ModelRouter,
  parseModelRouterConfig,
} from '../../../src/index.js';

function readmeYaml(): string {
  const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('## Cost, latency and limits'));
  const match = /```yaml\n([\s\S]*?)```/.exec(section);
  if (!match) throw new Error('README has no yaml block after "## Cost, latency and limits"');
  return match[1]!;
}

describe('README cost configuration', () => {
  it('parses, validates and builds: profiles on the group models, budgets in the module options', async () => {
    const config = parseModelRouterConfig(readmeYaml().replace(/^state:.*$/m, ''), {
      env: { OPENAI_API_KEY: 'sk-test', ANTHROPIC_API_KEY: 'sk-ant-test' },
    });
    const options = await buildModelRouterOptions(config);
    expect(Object.keys(options.routers)).toEqual(['cheap', 'fast']);
    const cheap = options.routers.cheap as ModelRouter;
    expect(cheap.models()[0]!.metadata.get(MODEL_PROFILE)).toMatchObject({
      pricing: { input: 0.15, output: 0.6, cachedInput: 0.075 },
      limits: { rpm: 500, tpm: 200000 },
    });
    expect(options.budgets).toHaveLength(2);
  });
});
