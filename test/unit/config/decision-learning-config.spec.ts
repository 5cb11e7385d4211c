import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { learningOptions } from '../../../src/config/decision-learning-config.js';
import { InvalidModelRouterConfigException } from '../../../src/config/invalid-model-router-config.exception.js';
import { parseModelRouterConfig } from '../../../src/config/load-model-router-config.js';
import { readLearnedExamples } from '../../../src/config/learned-examples-file.js';
import type { DecisionModel } from '../../../src/core/decision/decision-model.js';
import type { DecisionModelChatModelRouter } from '../../../src/core/decision/decision-model-chat-model-router.js';
import { RoutingChatModel } from '../../../src/core/routing/routing-chat-model.js';
import { buildModelRouterOptions } from '../../../src/nest/config/build-model-router-options.js';
import { testFactories } from './test-factories.js';

const judge: DecisionModel = { decide: async () => ({ value: 'a' }) };

function file(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'learned-')), 'learned.jsonl');
  writeFileSync(path, text);
  return path;
}

describe('decision: { teacher, teachBelow, learned, capabilityOrder }', () => {
  it('builds the teacher with its own config and passes the rest on', () => {
    const seen: unknown[] = [];
    const options = learningOptions(
      { teacher: { type: 'llm', model: 'judge' }, teachBelow: 0.5, capabilityOrder: ['a', 'b'] },
      (config) => {
        seen.push(config);
        return judge;
      },
    );
    expect(seen).toEqual([{ type: 'llm', model: 'judge' }]);
    expect(options).toEqual({ teacher: judge, teachBelow: 0.5, capabilityOrder: ['a', 'b'] });
  });

  it('names the field of a mistake', () => {
    expect(() => learningOptions({ teachBelow: 0.5 }, () => judge)).toThrow(
      /^decision\.teachBelow: /,
    );
    expect(() => learningOptions({ maxTeacherShare: 0.2 }, () => judge)).toThrow(
      /^decision\.maxTeacherShare: set decision\.teacher/,
    );
  });

  it('passes maxTeacherShare on; the schema rejects one outside (0, 1] by its path', () => {
    expect(
      learningOptions({ teacher: { type: 'llm' }, maxTeacherShare: 0.2 }, () => judge),
    ).toEqual({ teacher: judge, maxTeacherShare: 0.2 });
    for (const bad of [0, 1.5, 'most']) {
      const parse = () =>
        parseModelRouterConfig({
          models: { a: { type: 'echo' } },
          routers: {
            main: {
              routes: [
                { name: 'x', model: 'a' },
                { name: 'y', model: 'a' },
              ],
              decision: { teacher: { type: 'llm' }, maxTeacherShare: bad },
            },
          },
        });
      expect(parse).toThrow(InvalidModelRouterConfigException);
      expect(parse).toThrow(/routers\.main\.decision\.maxTeacherShare/);
    }
  });

  it('a YAML router gets its teacher with teachBelow and maxTeacherShare', async () => {
    const config = parseModelRouterConfig({
      models: { a: { type: 'echo' } },
      routers: {
        main: {
          routes: [
            { name: 'simple', model: 'a', description: 'small talk' },
            { name: 'complex', model: 'a', description: 'hard questions' },
          ],
          decision: {
            type: 'keyword',
            keyword: 'prove',
            teacher: { type: 'keyword', keyword: 'why' },
            teachBelow: 0.95,
            maxTeacherShare: 0.2,
          },
        },
      },
    });
    const { routers } = await buildModelRouterOptions(config, testFactories());
    const main = routers!.main as RoutingChatModel;
    expect(main).toBeInstanceOf(RoutingChatModel);
    const [router] = main.feedbackRouters() as DecisionModelChatModelRouter[];
    expect(router!.teacherStats()).toMatchObject({ decisions: 0, maxShare: 0.2 });
  });

  it('reads a JSON Lines file of messages and conversations, skipping blank lines', () => {
    const path = file(
      '{"text": "where is my parcel", "route": "shipping"}\n\n' +
        '{"messages": [{"role": "user", "text": "refund?"}, {"role": "assistant", "text": "sure"}], "route": "billing"}\n',
    );
    expect(readLearnedExamples(path, 'decision.learned')).toEqual([
      { input: 'where is my parcel', route: 'shipping' },
      {
        input: {
          messages: [
            { role: 'user', text: 'refund?' },
            { role: 'assistant', text: 'sure' },
          ],
        },
        route: 'billing',
      },
    ]);
  });

  it.each([
    ['not JSON', '{"text": ', /line 1: not a JSON object/],
    ['no route', '{"text": "x"}', /line 1: route must be a route name/],
    ['no text', '\n{"route": "a"}', /line 2: give the message as "text"/],
    [
      'a bad role',
      '{"messages": [{"role": "system", "text": "x"}], "route": "a"}',
      /messages must be/,
    ],
  ])('refuses %s, naming the line', (_case, text, message) => {
    expect(() => readLearnedExamples(file(text), 'decision.learned')).toThrow(message);
  });

  it('a missing file names the field', () => {
    expect(() => readLearnedExamples('/nonexistent/learned.jsonl', 'decision.learned')).toThrow(
      /^decision\.learned: cannot read/,
    );
  });
});
