import { describe, expect, it } from '@jest/globals';
import { validateModelRouterConfig } from '../../../src/config/validate-model-router-config.js';

const base = {
  models: { mini: { type: 'demo' }, big: { type: 'demo' } },
  routers: {
    smart: {
      routes: [
        { name: 'simple', model: 'mini' },
        { name: 'complex', model: 'big' },
      ],
      targetShare: { complex: 0.3 },
    },
    pool: {
      models: ['mini', 'big'],
      balance: 'weighted',
      promptAffinity: { minPromptTokens: 2048 },
    },
  },
  budgets: [
    { name: 'big-daily', scope: { model: 'big' }, limitUsd: 5, period: '1d', fallback: 'mini' },
  ],
};

describe('YAML keys of issue 28', () => {
  it('accepts targetShare, promptAffinity and a budget fallback', () => {
    expect(() => validateModelRouterConfig(base)).not.toThrow();
  });

  it('names the field of a targetShare that is wrong', () => {
    const bad = structuredClone(base);
    bad.routers.smart.targetShare = { hard: 0.3 } as never;
    expect(() => validateModelRouterConfig(bad)).toThrow(
      /routers\.smart\.targetShare\.hard: no such route/,
    );
    bad.routers.smart.targetShare = { complex: 1 } as never;
    expect(() => validateModelRouterConfig(bad)).toThrow(/routers\.smart\.targetShare\.complex/);
  });

  it('names the field of a bad promptAffinity and a blank fallback', () => {
    const bad = structuredClone(base);
    (bad.routers.pool as Record<string, unknown>).promptAffinity = { minTokens: 1 };
    bad.budgets[0]!.fallback = '';
    const message = (() => {
      try {
        validateModelRouterConfig(bad);
        return '';
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(message).toMatch(/routers\.pool\.promptAffinity/);
    expect(message).toMatch(/budgets\[0\]\.fallback/);
  });
});
