import { describe, expect, it } from '@jest/globals';
import { ArchetypeMatcher } from '../../../src/embedded/archetype-matcher.js';
import { EMBEDDED_VECTOR_DEFAULTS } from '../../../src/embedded/embedded-vector-decision-model.js';
import { loadIntentCorpus } from '../../../src/embedded/intent-corpus.js';
import { featureSpace } from '../../support/decision-space.js';

const space = featureSpace();
const corpus = loadIntentCorpus();
const matcher = () => new ArchetypeMatcher(corpus, (text) => space.ofText(text));
const { corpusMatch: MATCH, corpusMargin: MARGIN } = EMBEDDED_VECTOR_DEFAULTS;

describe('ArchetypeMatcher', () => {
  it('matches routes to the archetypes they are about, by name, description and examples', () => {
    const options = [
      { name: 'delivery', description: 'Where my parcel is, tracking and couriers' },
      { name: 'billing', description: 'Invoices, charges and payments' },
      {
        name: 'dev',
        description: 'Software development',
        examples: ['fix this Python function', 'write a SQL query'],
      },
    ];
    expect(matcher().matches(options, MATCH)).toEqual(['shipping', 'billing', 'coding']);
  });

  it('lends an archetype to one route only, the closest', () => {
    const options = [
      { name: 'invoices', description: 'Billing: invoices, charges, payments and refunds' },
      { name: 'payments', description: 'Payments and charges' },
    ];
    const matches = matcher().matches(options, MATCH);
    expect(matches.filter((name) => name === 'billing')).toHaveLength(1);
  });

  it('an archetype close to two routes goes to neither when the gap is under the margin', () => {
    // Both are about cooking (cosine ≈ 0.9 and ≈ 0.8): the closer wins only without a margin.
    const options = [
      { name: 'cooking', description: 'Recipes and cooking' },
      { name: 'baking', description: 'Baking cakes and bread' },
    ];
    expect(matcher().matches(options, MATCH, 0)).toEqual(['cooking', undefined]);
    expect(matcher().matches(options, MATCH, 0.2)).toEqual([undefined, undefined]);
  });

  it("matches the README's simple/complex routes to the style archetypes, not to math", () => {
    // The same `complex` route among topic routes borrows math: its router divides requests by
    // what they are about, so the style archetypes are not candidates.
    const options = [
      {
        name: 'simple',
        description: 'small talk, greetings and short factual questions',
        examples: ['hi there', 'what is the capital of France', 'thanks, bye'],
      },
      {
        name: 'complex',
        description: 'mathematical proofs, algorithms and multi-step reasoning',
        examples: ['prove that there are infinitely many primes', 'design a sorting algorithm'],
      },
    ];
    expect(matcher().matches(options, MATCH, MARGIN)).toEqual([
      'simple-requests',
      'complex-requests',
    ]);
    const topics = [
      options[1]!,
      { name: 'translate', description: 'translation between languages' },
      { name: 'stories', description: 'creative writing: stories and poems' },
    ];
    expect(matcher().matches(topics, MATCH, MARGIN)).toEqual([
      'math',
      'translation',
      'creative-writing',
    ]);
  });

  it('does not count the options of one route (complex#1, complex#2) as rivals', () => {
    const options = [
      { name: 'simple', description: 'greetings and small talk', examples: ['hi'] },
      { name: 'complex#1', description: 'mathematical proofs', examples: ['prove it'] },
      { name: 'complex#2', description: 'multi-step reasoning', examples: ['prove it'] },
    ];
    expect(matcher().matches(options, MATCH, MARGIN)).toEqual([
      'simple-requests',
      undefined,
      'complex-requests',
    ]);
  });

  it('lends no style archetype to a route of a topic router', () => {
    // The council's `planning` route is closest to complex requests, by the word "planning".
    const options = [
      {
        name: 'planning',
        description: 'Planning applications, building permission and extensions',
      },
      { name: 'waste', description: 'Bin collections, recycling and bulky waste' },
      { name: 'billing', description: 'Invoices, charges and payments' },
      { name: 'delivery', description: 'Where my parcel is, tracking and couriers' },
    ];
    const style = new Set(corpus.filter((a) => a.style).map((a) => a.name));
    const matches = matcher().matches(options, 0.5, MARGIN);
    expect(matches.slice(2)).toEqual(['billing', 'shipping']);
    expect(matches.filter((name) => name !== undefined && style.has(name))).toEqual([]);
  });

  it('borrows nothing for a route no archetype is close to', () => {
    const options = [
      { name: 'orchids', description: 'Orchid species, repotting and greenhouse humidity' },
      { name: 'billing', description: 'Invoices, charges and payments' },
    ];
    const borrowed = matcher().borrow(options, MATCH);
    expect(borrowed[0]).toBeUndefined();
    expect(borrowed[1]!.features.length).toBeGreaterThan(10);
  });

  it('gives a catch-all route the generic archetypes no other route took', () => {
    const generic = corpus.filter((archetype) => archetype.generic);
    // Messages with no known word cannot be placed, and are not borrowed.
    const size = (names: string[]) =>
      generic
        .filter((a) => names.includes(a.name))
        .flatMap((a) => a.messages)
        .filter((text) => !space.ofText(text).empty).length;
    const withChat = [
      { name: 'chat', description: 'Small talk, greetings and casual conversation' },
      { name: 'other', description: 'Anything else' },
    ];
    const alone = [
      { name: 'billing', description: 'Invoices, charges and payments' },
      { name: 'other', description: 'Anything else' },
    ];
    const all = generic.map((a) => a.name);
    expect(matcher().matches(withChat, MATCH)).toEqual(['small-talk', undefined]);
    expect(matcher().borrow(withChat, MATCH)[1]!.features.length).toBe(
      size(all.filter((name) => name !== 'small-talk')),
    );
    expect(matcher().borrow(alone, MATCH)[1]!.features.length).toBe(size(all));
  });

  it('borrows nothing when no route reaches the threshold', () => {
    const options = [{ name: 'billing', description: 'Invoices, charges and payments' }];
    expect(matcher().matches(options, 1)).toEqual([undefined]);
  });
});
