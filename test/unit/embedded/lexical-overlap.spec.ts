import { describe, expect, it } from '@jest/globals';
import {
  borrowedVocabulary,
  contentStems,
  LexicalOverlap,
  stem,
  weightedStems,
} from '../../../src/embedded/lexical-overlap.js';

const options = [
  { name: 'parking', description: 'Parking permits and fines.', examples: ['I got a PCN.'] },
  { name: 'waste', description: 'Bins and recycling.', examples: ['My bin was not emptied.'] },
  { name: 'council-tax', description: 'Council tax bills.', examples: ['Can I pay my bill?'] },
];

const scores = (text: string) => {
  const out = new Float64Array(options.length);
  new LexicalOverlap(options).addScores(weightedStems([{ text, weight: 1 }]), 1, out);
  return Array.from(out);
};

describe('lexical overlap', () => {
  it('stems plurals, -ing, -ed, -ly and a final e so inflections meet', () => {
    expect(['charged', 'charges', 'charge', 'charging'].map(stem)).toEqual(Array(4).fill('charg'));
    expect(stem('bursaries')).toBe('bursary');
    expect(stem('payments')).toBe(stem('payment'));
    // Short words and double s are left alone.
    expect(['bus', 'red', 'class'].map(stem)).toEqual(['bus', 'red', 'class']);
  });

  it('keeps content words only', () => {
    expect([...contentStems("Why wasn't my bin emptied?")]).toEqual(['bin', 'empti']);
  });

  it('scores the option whose texts share the rare word, by how rare it is', () => {
    const [parking, waste, tax] = scores('Who do I appeal a PCN to?');
    expect(parking).toBeGreaterThan(0);
    expect(waste).toBe(0);
    expect(tax).toBe(0);
  });

  it("a word of one option's texts counts more than a word two options share", () => {
    const overlap = new LexicalOverlap([
      ...options,
      { name: 'garden', description: 'Garden bin collections.', examples: [] },
    ]);
    const out = new Float64Array(4);
    // "permit" is parking's alone; "bin" is shared by waste and garden.
    overlap.addScores(weightedStems([{ text: 'bin permit', weight: 1 }]), 1, out);
    const [parking, waste, tax, garden] = out;
    expect(waste).toBeGreaterThan(0);
    expect(parking).toBeGreaterThan(waste!);
    expect(garden).toBe(waste);
    expect(tax).toBe(0);
  });

  it('words no option uses dilute the evidence; an input without content words scores nothing', () => {
    const [, alone] = scores('bin');
    const [, diluted] = scores('bin lorry driver shouting');
    expect(diluted).toBeLessThan(alone!);
    expect(scores('is it the one?')).toEqual([0, 0, 0]);
  });

  it("a stem weighs its heaviest message's weight", () => {
    const terms = weightedStems([
      { text: 'my bins', weight: 0.35 },
      { text: 'the bin', weight: 1 },
    ]);
    expect(terms.get('bin')).toBe(1);
  });

  it("an option's borrowed corpus words count, less than its own, and only the often used ones", () => {
    const corpus = [
      'tl;dr of this email please',
      'give me the gist of this',
      'the gist of the report?',
      'tl;dr this thread',
      'boil this down for me',
      'key points of the article',
    ];
    const vocabulary = borrowedVocabulary(corpus);
    // In two messages or more: the archetype's words; in one: one message's subject.
    expect(vocabulary.get('gist')).toBe(1);
    expect(vocabulary.get('tl')).toBe(1);
    expect(vocabulary.has('email')).toBe(false);
    expect(vocabulary.has('boil')).toBe(false);

    const digest = [
      {
        name: 'summarize',
        description: 'Shorter versions of a text.',
        examples: ['Summarize this'],
      },
      { name: 'code', description: 'Programming help: a loop, a function.', examples: [] },
    ];
    const score = (strength: number, text: string) => {
      const out = new Float64Array(2);
      new LexicalOverlap(digest, [vocabulary, undefined], strength).addScores(
        weightedStems([{ text, weight: 1 }]),
        1,
        out,
      );
      return Array.from(out);
    };
    expect(score(0, 'the gist of my loop')[0]).toBe(0);
    const [borrowed, code] = score(0.5, 'the gist of my loop');
    expect(borrowed).toBeGreaterThan(0);
    // "loop" is in code's description; "gist" only borrowed by summarize, at half strength.
    expect(code).toBeGreaterThan(borrowed!);
    expect(score(0.5, 'summarize my loop')[0]).toBeCloseTo(code!, 10);
  });

  it("an example's words count half as much as the description's", () => {
    const out = new Float64Array(2);
    new LexicalOverlap([
      { name: 'creative', description: 'Stories and poems.', examples: ['a story about a robot'] },
      { name: 'robotics', description: 'Robot kits and repairs.', examples: [] },
    ]).addScores(weightedStems([{ text: 'robot', weight: 1 }]), 1, out);
    expect(out[1]).toBeCloseTo(2 * out[0]!, 10);
  });
});
