import { describe, expect, it } from '@jest/globals';
import { validateModelRouterConfig } from '../../../src/config/validate-model-router-config.js';
import { problemsOf as problemsOfParse } from '../../support/config-problems.js';

const problemsOf = (raw: unknown) => problemsOfParse(() => validateModelRouterConfig(raw));

const base = (model: Record<string, unknown>, router: Record<string, unknown> = {}) => ({
  models: { a: { type: 'demo', ...model }, b: { type: 'demo' } },
  routers: { main: { models: ['a', 'b'], ...router } },
});

describe('tail-latency options in the YAML', () => {
  it('reads firstTokenTimeout and idleTimeout as adaptive or a duration in ms', () => {
    const config = validateModelRouterConfig(
      base({ firstTokenTimeout: 'adaptive', idleTimeout: '20s' }),
    );
    expect(config.models.a).toMatchObject({ firstTokenTimeout: 'adaptive', idleTimeout: 20_000 });
    const fixed = validateModelRouterConfig(base({ firstTokenTimeout: 90_000 }));
    expect(fixed.models.a!.firstTokenTimeout).toBe(90_000);
    expect(validateModelRouterConfig(base({ firstTokenTimeout: '250ms' })).models.a).toMatchObject({
      firstTokenTimeout: 250,
    });
  });

  it.each([['soon'], [-5], ['0s'], [{}]])('names the field of firstTokenTimeout %j', (value) => {
    const problems = problemsOf(base({ firstTokenTimeout: value }));
    expect(problems).toEqual([
      "models.a.firstTokenTimeout: must be 'adaptive' or a duration such as '250ms', '20s', '5m' or '1h', or a whole number of milliseconds",
    ]);
  });
});

describe('answerTimeout in the YAML', () => {
  it('reads answerTimeout as adaptive or a duration in ms', () => {
    expect(validateModelRouterConfig(base({ answerTimeout: '45s' })).models.a).toMatchObject({
      answerTimeout: 45_000,
    });
    expect(
      validateModelRouterConfig(base({ answerTimeout: 'adaptive' })).models.a!.answerTimeout,
    ).toBe('adaptive');
  });

  it.each([['later'], [0], [{}]])('names the field of answerTimeout %j', (value) => {
    const problems = problemsOf(base({ answerTimeout: value }));
    expect(problems.join('\n')).toContain('models.a.answerTimeout');
  });

  it('gives a built model its fixed answerTimeout, and others the learnt bound', async () => {
    const { buildModelRouterOptions } =
      await import('../../../src/nest/config/build-model-router-options.js');
    const { ResilientChatModel } =
      await import('../../../src/core/resilience/resilient-chat-model.js');
    const model = {
      type: 'openai',
      baseURL: 'http://127.0.0.1:9/v1',
      apiKey: 'sk-test-0',
      model: 'm',
    };
    const config = validateModelRouterConfig({
      models: { fixed: { ...model, answerTimeout: '30s' }, learnt: model },
      routers: { main: { models: ['fixed', 'learnt'] } },
    });
    const options = await buildModelRouterOptions(config);
    const fixed = options.models!.fixed as InstanceType<typeof ResilientChatModel>;
    const learnt = options.models!.learnt as InstanceType<typeof ResilientChatModel>;
    expect(fixed.answerDeadline.adaptive).toBe(false);
    expect(fixed.answerDeadline.currentMs(undefined)).toBe(30_000);
    expect(learnt.answerDeadline.adaptive).toBe(true);
    expect(learnt.answerDeadline.currentMs(undefined)).toBe(60_000); // attemptMs, until learnt
  });
});

describe('tail-latency options when the models are built', () => {
  it('gives a model its fixed firstTokenTimeout, and others the adaptive default', async () => {
    const { buildModelRouterOptions } =
      await import('../../../src/nest/config/build-model-router-options.js');
    const { ResilientChatModel } =
      await import('../../../src/core/resilience/resilient-chat-model.js');
    const config = validateModelRouterConfig({
      models: {
        fixed: {
          type: 'openai',
          baseURL: 'http://127.0.0.1:9/v1',
          apiKey: 'sk-test-0000000000',
          model: 'm',
          firstTokenTimeout: '90s',
        },
        learnt: {
          type: 'openai',
          baseURL: 'http://127.0.0.1:9/v1',
          apiKey: 'sk-test-0000000000',
          model: 'm',
        },
      },
      routers: { main: { models: ['fixed', 'learnt'] } },
    });
    const options = await buildModelRouterOptions(config);
    const fixed = options.models!.fixed as InstanceType<typeof ResilientChatModel>;
    const learnt = options.models!.learnt as InstanceType<typeof ResilientChatModel>;
    expect(fixed.deadlines.adaptive.firstToken).toBe(false);
    expect(fixed.deadlines.firstTokenMs()).toBe(90_000);
    expect(learnt.deadlines.adaptive.firstToken).toBe(true);
    expect(learnt.deadlines.firstTokenMs()).toBe(12_000);
  });
});

describe('the sliding breaker in the YAML', () => {
  it('reads a count window and a slow-call rule', () => {
    const config = validateModelRouterConfig(
      base(
        {},
        {
          slowCallRateThreshold: 0.5,
          slowCallMs: '8s',
          window: { calls: 50, minimumRequests: 20 },
        },
      ),
    );
    expect(config.routers.main).toMatchObject({
      slowCallRateThreshold: 0.5,
      slowCallMs: 8_000,
      window: { calls: 50, minimumRequests: 20 },
    });
  });

  it('names the field of a bad slow-call rule', () => {
    const problems = problemsOf(base({}, { slowCallRateThreshold: 3, slowCallMs: 'slow' }));
    expect(problems.join('\n')).toContain('routers.main.slowCallRateThreshold');
    expect(problems.join('\n')).toContain('routers.main.slowCallMs');
  });
});

describe('hedge in the YAML', () => {
  it('reads a percentile or a duration', () => {
    expect(
      validateModelRouterConfig(base({}, { hedge: { after: 'p95', maxExtra: 0.1 } })).routers.main,
    ).toMatchObject({ hedge: { after: 'p95', maxExtra: 0.1 } });
    expect(
      validateModelRouterConfig(base({}, { hedge: { after: '300ms' } })).routers.main!.hedge,
    ).toEqual({ after: 300 });
  });

  it('names the field of a bad hedge', () => {
    const problems = problemsOf(base({}, { hedge: { after: 'p50', maxExtra: 0 } })).join('\n');
    expect(problems).toContain('routers.main.hedge.after');
    expect(problems).toContain('routers.main.hedge.maxExtra');
  });
});

describe('concurrency in the YAML', () => {
  it('reads a model concurrency', () => {
    const config = validateModelRouterConfig(
      base({ concurrency: { adaptive: true, max: 8, queueMs: '200ms' } }),
    );
    expect(config.models.a!.concurrency).toEqual({ adaptive: true, max: 8, queueMs: 200 });
  });

  it('names the field of a bad concurrency', () => {
    expect(problemsOf(base({ concurrency: { max: 0 } })).join('\n')).toContain(
      'models.a.concurrency.max',
    );
    expect(problemsOf(base({ concurrency: {} })).join('\n')).toContain('models.a.concurrency');
    expect(problemsOf(base({ concurrency: { adaptive: true, queue: 3 } })).join('\n')).toContain(
      'queue',
    );
  });
});
