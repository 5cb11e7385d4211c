import { describe, expect, it } from '@jest/globals';
import { interpolateEnv } from '../../../src/config/interpolate-env.js';

describe('interpolateEnv', () => {
  const env = { HOST: 'db.local', EMPTY: '', PORT: '6379' };

  it.each([
    ['${HOST}', 'db.local'],
    ['redis://${HOST}:${PORT}/0', 'redis://db.local:6379/0'],
    ['${MISSING:-fallback}', 'fallback'],
    ['${MISSING:-}', ''],
    ['${EMPTY:-used when empty}', 'used when empty'],
    ['${EMPTY}', ''],
    ['$${HOST} stays literal', '${HOST} stays literal'],
    ['no references', 'no references'],
  ])('%s → %s', (input, expected) => {
    const problems: string[] = [];
    expect(interpolateEnv(input, env, problems)).toBe(expected);
    expect(problems).toEqual([]);
  });

  it('walks objects and arrays, leaving other values alone', () => {
    const problems: string[] = [];
    const result = interpolateEnv(
      { a: ['${HOST}', 1, true, null], b: { c: '${PORT}' } },
      env,
      problems,
    );
    expect(result).toEqual({ a: ['db.local', 1, true, null], b: { c: '6379' } });
  });

  it('reports every unset variable with the path where it is used, never a value', () => {
    const problems: string[] = [];
    interpolateEnv(
      { models: { gpt: { apiKey: '${OPENAI_KEY}' } }, list: ['ok', '${TEAM}'] },
      env,
      problems,
    );
    expect(problems).toEqual([
      'models.gpt.apiKey: environment variable OPENAI_KEY is not set; set it or write ${OPENAI_KEY:-default}',
      'list[1]: environment variable TEAM is not set; set it or write ${TEAM:-default}',
    ]);
  });
});
