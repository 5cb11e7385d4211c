import { describe, expect, it } from '@jest/globals';
import { registerBuiltinDecisionModelTypes } from '../../../src/config/builtin-decision-model-factories.js';
import { embeddedDecisionOptions } from '../../../src/config/embedded-decision-settings.js';
import { ModelRouterFactories } from '../../../src/config/model-router-factories.js';
import { EmbeddedVectorDecisionModel } from '../../../src/embedded/embedded-vector-decision-model.js';
import { InvalidConfigurationException } from '../../../src/core/errors/exceptions.js';

describe("an 'embedded' decision model's settings", () => {
  it('accepts every option of the model but in-memory vectors, as given', () => {
    const settings = {
      temperature: { examples: 2, descriptionsOnly: 4 },
      similarityWeight: 3,
      descriptionWeight: 0.4,
      topExamples: 2,
      regularization: 0.01,
      followUpWeight: 3,
      instructionWeight: 4,
      corpusWeight: 0.5,
      catchAllCorpusWeight: 0.3,
      corpusMatch: 0.8,
      maxCachedTexts: 100,
      vectorsPath: 'assets/vectors.bin',
      corpusPath: 'assets/corpus.json',
      features: { style: 1, surface: 2, complexity: 0.5 },
      weighting: { frequencyDamping: 300, stopWordWeight: 0.1, centre: false },
      messageWeights: { lastUser: 1, earlierUser: 0.5, assistant: 0.2 },
    };
    expect(embeddedDecisionOptions(settings)).toEqual(settings);
    expect(() => embeddedDecisionOptions({ vectors: {} })).toThrow(
      "vectors: unknown setting of an 'embedded' decision model",
    );
  });

  it('lists every setting of the wrong shape, by path', () => {
    let message = '';
    try {
      embeddedDecisionOptions({
        temperature: 'hot',
        corpusWeight: '1',
        corpusPath: 3,
        weighting: { centre: 'yes' },
        messageWeights: { last: 1 },
        features: [1],
        similarityWeight: { examples: '2' },
      });
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidConfigurationException);
      message = (error as Error).message;
    }
    expect(message.split('; ')).toEqual([
      "temperature must be a number or { examples, descriptionsOnly }, got 'hot'",
      "corpusWeight must be a number, got '1'",
      'corpusPath must be a string, got 3',
      "weighting.centre must be a boolean, got 'yes'",
      'messageWeights.last is not a setting (known: lastUser, earlierUser, assistant)',
      'features must be a mapping, got [1]',
      "similarityWeight.examples must be a number, got '2'",
    ]);
  });

  it('builds the model through the factory, whose constructor checks the ranges', () => {
    const create = registerBuiltinDecisionModelTypes(new ModelRouterFactories()).decisionModelType(
      'embedded',
    )!;
    const build = (settings: Record<string, unknown>) => create(settings, {} as never);
    expect(build({ corpusWeight: 0.5 })).toBeInstanceOf(EmbeddedVectorDecisionModel);
    expect(build({ corpusWeight: 0.5 })).toBe(build({ corpusWeight: 0.5 }));
    expect(() => build({ corpusWeight: -1 })).toThrow('corpusWeight must be a number ≥ 0, got -1');
    expect(() => build({ corpusMatch: 1.5 })).toThrow('corpusMatch must be between -1 and 1');
  });
});
