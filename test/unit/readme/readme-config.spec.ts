// The README's YAML configuration must stay valid: it is parsed and built here as a user would.
import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { buildModelRouterOptions, parseModelRouterConfig } from '../../../src/index.js';

function readmeYaml(): string {
  const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('### From YAML'));
  const match = /```yaml\n([\s\S]*?)```/.exec(section);
  if (!match) throw new Error('README has no yaml block after "### From YAML"');
  return match[1]!;
}

describe('README configuration', () => {
  it('parses, validates and builds into module options', async () => {
    const config = parseModelRouterConfig(readmeYaml(), {
      env: { OPENAI_API_KEY: 'sk-test', ANTHROPIC_API_KEY: 'sk-ant-test' },
    });
    const options = await buildModelRouterOptions(config);
    expect(Object.keys(options.routers)).toEqual(['support']);
    expect(Object.keys(options.models ?? {})).toEqual(['mini', 'local', 'claude']);
    expect(options.defaultRouter).toBe('support');
  });

  it('names the offending path when a route points at an unknown model', () => {
    const broken = readmeYaml().replace('models: [claude, mini]', 'models: [claude, gpt-5]');
    expect(() =>
      parseModelRouterConfig(broken, { env: { OPENAI_API_KEY: 'k', ANTHROPIC_API_KEY: 'k' } }),
    ).toThrow("routers.support.routes[1].models[1]: unknown model 'gpt-5'");
  });
});
