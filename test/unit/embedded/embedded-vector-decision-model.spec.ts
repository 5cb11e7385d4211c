import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { InvalidConfigurationException } from '../../../src/core/errors/exceptions.js';
import type {
  ChoiceAnswer,
  ChoiceQuestion,
  DecisionModel,
} from '../../../src/core/decision/decision-model.js';
import { EmbeddedVectorDecisionModel } from '../../../src/embedded/embedded-vector-decision-model.js';
import { WordVectors } from '../../../src/embedded/word-vectors.js';

const question: ChoiceQuestion = {
  text: 'Which model should handle this request?',
  options: [
    { name: 'code', description: 'Programming: writing and debugging source code and software' },
    {
      name: 'translation',
      description: 'Translating text between languages such as French and Spanish',
    },
    { name: 'billing', description: 'Billing, invoices, payments and refunds for your account' },
  ],
};

function sum(probabilities: Record<string, number>): number {
  return Object.values(probabilities).reduce((a, b) => a + b, 0);
}

describe('EmbeddedVectorDecisionModel', () => {
  it('works with no arguments on the shipped vectors and reports a probability for every option', async () => {
    const model: DecisionModel = new EmbeddedVectorDecisionModel();
    const answer = await model.decide({
      input: 'Please translate this letter into Spanish',
      question,
    });
    expect(answer.value).toBe('translation');
    expect(Object.keys(answer.probabilities!)).toEqual(['code', 'translation', 'billing']);
    expect(sum(answer.probabilities!)).toBeCloseTo(1, 10);
    expect(answer.probabilities!.translation).toBeGreaterThan(0.5);

    expect(
      (await model.decide({ input: 'I was charged twice, I want a refund', question })).value,
    ).toBe('billing');
    expect(
      (await model.decide({ input: 'my python function crashes with an exception', question }))
        .value,
    ).toBe('code');
  });

  it('learns from examples when the descriptions do not tell the options apart', async () => {
    const lookalike: ChoiceQuestion = {
      text: 'q',
      options: [
        {
          name: 'first',
          description: 'a route',
          examples: ['plan my holiday in Italy', 'book a hotel in Rome'],
        },
        {
          name: 'second',
          description: 'a route',
          examples: ['fix the bug in my javascript', 'compile my program'],
        },
      ],
    };
    const model = new EmbeddedVectorDecisionModel();
    expect(
      (await model.decide({ input: 'debugging a python script', question: lookalike })).value,
    ).toBe('second');
    expect(
      (await model.decide({ input: 'flights to Paris and a cheap hotel', question: lookalike }))
        .value,
    ).toBe('first');
  });

  it('an input with no known word gets uniform probabilities and the first option', async () => {
    const answer = await new EmbeddedVectorDecisionModel().decide({
      input: 'zxqv blorfle 12345 !!!',
      question,
    });
    expect(answer.value).toBe('code');
    for (const p of Object.values(answer.probabilities!)) expect(p).toBeCloseTo(1 / 3, 10);
    const blank = await new EmbeddedVectorDecisionModel().decide({
      input: { messages: [] },
      question,
    });
    expect(blank.value).toBe('code');
  });

  it('weighs the last user message of a conversation most', async () => {
    const model = new EmbeddedVectorDecisionModel();
    const translateThenCode = await model.decide({
      input: {
        messages: [
          { role: 'user', text: 'translate this sentence into French' },
          { role: 'assistant', text: 'Voici la traduction.' },
          {
            role: 'user',
            text: 'now write a python function that parses the file and fix the bug',
          },
        ],
      },
      question,
    });
    expect(translateThenCode.value).toBe('code');
    const codeThenTranslate = await model.decide({
      input: {
        messages: [
          { role: 'user', text: 'write a python function that parses the file and fix the bug' },
          { role: 'assistant', text: 'def parse(path): ...' },
          { role: 'user', text: 'now translate this sentence into French' },
        ],
      },
      question,
    });
    expect(codeThenTranslate.value).toBe('translation');
  });

  it("weighs a message's instruction over the payload it is about, unless instructionWeight is 0", async () => {
    const invoice =
      'Your invoice for March is attached. The payment of 120 was charged to your card, and ' +
      'the refund for February will reach your account within five days.';
    const inputs = [
      `Translate to French: ${invoice}`,
      `${invoice}\n\nput this into Spanish please`,
    ];
    const routed = new EmbeddedVectorDecisionModel();
    const unweighted = new EmbeddedVectorDecisionModel({ instructionWeight: 0 });
    for (const input of inputs) {
      expect((await routed.decide({ input, question })).value).toBe('translation');
      // The payload's billing words outnumber the request's.
      expect((await unweighted.decide({ input, question })).value).toBe('billing');
    }
  });

  it('a lower temperature makes the same choice more decisive', async () => {
    const input = 'how do I get a refund for the last invoice';
    const warm = await new EmbeddedVectorDecisionModel({ temperature: 20 }).decide({
      input,
      question,
    });
    const cold = await new EmbeddedVectorDecisionModel({ temperature: 2 }).decide({
      input,
      question,
    });
    expect(warm.value).toBe('billing');
    expect(cold.value).toBe('billing');
    expect(cold.probabilities!.billing).toBeGreaterThan(warm.probabilities!.billing!);
    expect(sum(cold.probabilities!)).toBeCloseTo(1, 10);
  });

  it('descriptionWeight 1 ignores the examples; 0 decides on them alone', async () => {
    const misleading: ChoiceQuestion = {
      text: 'q',
      options: [
        {
          name: 'money',
          description: 'payments and invoices',
          examples: ['write a poem about the sea'],
        },
        { name: 'poetry', description: 'poems and stories', examples: ['pay my invoice'] },
      ],
    };
    const input = 'a poem about the ocean';
    const byDescription = new EmbeddedVectorDecisionModel({ descriptionWeight: 1 });
    const byExamples = new EmbeddedVectorDecisionModel({ descriptionWeight: 0 });
    expect((await byDescription.decide({ input, question: misleading })).value).toBe('poetry');
    expect((await byExamples.decide({ input, question: misleading })).value).toBe('money');
  });

  it("borrows a matching archetype's messages: they teach an option what its description does not say", async () => {
    const corpus = (messages: string[]) => {
      const file = join(mkdtempSync(join(tmpdir(), 'corpus-')), 'corpus.json');
      writeFileSync(
        file,
        JSON.stringify({
          archetypes: [{ name: 'billing', description: 'billing invoices payments', messages }],
        }),
      );
      return file;
    };
    const routes: ChoiceQuestion = {
      text: 'q',
      options: [
        { name: 'billing', description: 'Billing, invoices and payments' },
        { name: 'travel', description: 'Flights, hotels and holidays' },
      ],
    };
    const billing = async (options: object, input: string) =>
      (await new EmbeddedVectorDecisionModel(options).decide({ input, question: routes }))
        .probabilities!.billing!;
    // Messages in words the description does not use: debits and standing orders.
    const debits = corpus([
      'why did the direct debit take so much',
      'the standing order went out twice',
      'my bank statement shows a double debit',
      'the direct debit bounced',
    ]);
    const input = 'my standing order bounced';
    const alone = await billing({ corpusPath: debits, corpusWeight: 0 }, input);
    expect(await billing({ corpusPath: debits }, input)).toBeGreaterThan(alone + 0.2);
    // An archetype whose messages are not what its keywords say (cats under 'billing') is close
    // to a billing route by its keywords only, and matches nothing.
    const cats = corpus([
      'my cat purrs all day',
      'the kitten chases mice',
      'feeding a stray tomcat',
    ]);
    const kitten = 'my kitten keeps chasing the cat';
    expect(await billing({ corpusPath: cats }, kitten)).toBeCloseTo(
      await billing({ corpusPath: cats, corpusWeight: 0 }, kitten),
      6,
    );
  });

  it("an option's own examples weigh more against what it borrows the more it has", async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'corpus-')), 'corpus.json');
    const messages = ['why was I charged twice', 'refund the overcharge', 'my invoice is wrong'];
    writeFileSync(
      file,
      JSON.stringify({
        archetypes: [{ name: 'billing', description: 'billing invoices charges', messages }],
      }),
    );
    // Own examples about parking fines: the more of them, the less a charge-like message
    // is pulled by the borrowed invoices (measured against the same examples without the corpus).
    const own = ['a parking fine', 'a speeding ticket', 'a penalty notice', 'a fine for litter'];
    const routes: ChoiceQuestion = {
      text: 'q',
      options: [
        { name: 'billing', description: 'Billing, invoices and charges', examples: own },
        { name: 'travel', description: 'Flights, hotels and holidays', examples: ['a flight'] },
      ],
    };
    const input = 'why was I charged twice for my invoice';
    const pull = async (halfAt: number) => {
      // The regression alone, where the borrowed weight applies (the similarity score takes
      // borrowed messages as examples whatever their weight), at a temperature that keeps the
      // probabilities off their bounds.
      const settings = {
        corpusPath: file,
        corpusMargin: 0,
        corpusHalfWeightExamples: halfAt,
        similarityWeight: 0,
        lexicalWeight: 0,
        temperature: 1,
      };
      const on = new EmbeddedVectorDecisionModel(settings);
      const off = new EmbeddedVectorDecisionModel({ ...settings, corpusWeight: 0 });
      const q = { input, question: routes };
      // In log-odds (logits at temperature 1): the probability itself is close to 1 either way.
      const logOdds = ({ probabilities }: ChoiceAnswer) =>
        Math.log(probabilities!.billing! / probabilities!.travel!);
      return logOdds(await on.decide(q)) - logOdds(await off.decide(q));
    };
    const halvedAtOne = await pull(1);
    expect(halvedAtOne).toBeGreaterThan(0);
    expect(await pull(1000)).toBeGreaterThan(1.5 * halvedAtOne);
  });

  it('a missing corpus file rejects with a typed error naming corpusPath', async () => {
    const model = new EmbeddedVectorDecisionModel({ corpusPath: '/nonexistent/corpus.json' });
    await expect(model.decide({ input: 'hello', question })).rejects.toThrow(/corpusPath/);
  });

  it('runs on custom vectors', async () => {
    const vectors = WordVectors.fromEntries([
      ['cat', [1, 0, 0]],
      ['kitten', [0.9, 0.1, 0]],
      ['car', [0, 1, 0]],
      ['truck', [0.1, 0.9, 0]],
      ['tree', [0, 0, 1]],
    ]);
    const model = new EmbeddedVectorDecisionModel({ vectors, weighting: { centre: false } });
    const animals: ChoiceQuestion = {
      text: 'q',
      options: [
        { name: 'vehicles', description: 'car' },
        { name: 'animals', description: 'cat' },
      ],
    };
    expect((await model.decide({ input: 'a kitten!', question: animals })).value).toBe('animals');
    expect((await model.decide({ input: 'my truck', question: animals })).value).toBe('vehicles');
  });

  it('rejects with the abort reason when the signal is aborted', async () => {
    const controller = new AbortController();
    const reason = new Error('client went away');
    controller.abort(reason);
    await expect(
      new EmbeddedVectorDecisionModel().decide({
        input: 'hello',
        question,
        signal: controller.signal,
      }),
    ).rejects.toBe(reason);
  });

  it('a missing vectors file rejects with a typed error naming vectorsPath', async () => {
    const model = new EmbeddedVectorDecisionModel({ vectorsPath: '/nonexistent/vectors.bin' });
    await expect(model.decide({ input: 'hello', question })).rejects.toThrow(/vectorsPath/);
    expect(() =>
      new EmbeddedVectorDecisionModel({ vectorsPath: '/nonexistent/vectors.bin' }).preload(),
    ).toThrow(InvalidConfigurationException);
  });

  it('rejects a question without options or with duplicate names', async () => {
    const model = new EmbeddedVectorDecisionModel();
    await expect(
      model.decide({ input: 'hi', question: { text: 'q', options: [] } }),
    ).rejects.toThrow('question.options');
    await expect(
      model.decide({
        input: 'hi',
        question: { text: 'q', options: [question.options[0]!, question.options[0]!] },
      }),
    ).rejects.toThrow("more than one option named 'code'");
  });

  it.each([
    [{ temperature: 0 }, 'temperature'],
    [{ temperature: Number.NaN }, 'temperature'],
    [{ temperature: { descriptionsOnly: 0 } }, 'temperature.descriptionsOnly'],
    [{ similarityWeight: -1 }, 'similarityWeight'],
    [{ similarityWeight: { examples: -1 } }, 'similarityWeight.examples'],
    [{ regularization: -1 }, 'regularization'],
    [{ followUpWeight: Number.NaN }, 'followUpWeight'],
    [{ instructionWeight: -1 }, 'instructionWeight'],
    [{ features: { complexity: -1 } }, 'features.complexity'],
    [{ descriptionWeight: 1.5 }, 'descriptionWeight'],
    [{ topExamples: 0 }, 'topExamples'],
    [{ topExamples: 1.5 }, 'topExamples'],
    [{ maxCachedTexts: 0 }, 'maxCachedTexts'],
    [{ weighting: { stopWordWeight: -1 } }, 'weighting.stopWordWeight'],
    [{ weighting: { frequencyDamping: -1 } }, 'weighting.frequencyDamping'],
    [{ messageWeights: { assistant: -0.1 } }, 'messageWeights.assistant'],
    [{ corpusWeight: -1 }, 'corpusWeight'],
    [{ catchAllCorpusWeight: Number.NaN }, 'catchAllCorpusWeight'],
    [{ corpusMatch: 2 }, 'corpusMatch'],
  ])('rejects the option %j naming %s', (options, field) => {
    expect(() => new EmbeddedVectorDecisionModel(options)).toThrow(InvalidConfigurationException);
    expect(() => new EmbeddedVectorDecisionModel(options)).toThrow(field);
  });
});
