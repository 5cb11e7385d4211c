import { describe, expect, it } from '@jest/globals';
import { DEFAULT_FEATURE_WEIGHTS } from '../../../src/embedded/decision-features.js';
import { WORD_CLASSES } from '../../../src/embedded/word-classes.js';
import { embedder, featureSpace } from '../../support/decision-space.js';

const space = (opinion = DEFAULT_FEATURE_WEIGHTS.opinion) => featureSpace({ opinion });
/** A word class's slot: the classes stand in order before the bias, which is last. */
const classOf =
  (name: string) =>
  ({ vector }: { vector: Float64Array }) =>
    vector.at(WORD_CLASSES.findIndex((c) => c.name === name) - WORD_CLASSES.length - 1)!;
const opinionOf = classOf('opinion');
const languageOf = classOf('language');

describe('FeatureSpace word classes', () => {
  it('is high for praise and complaints, zero for requests on the same subject', () => {
    const features = space(1);
    expect(opinionOf(features.ofText('Kudos to the driver, five stars, great service'))).toBe(1);
    expect(opinionOf(features.ofText('the checkout on mobile is a nightmare'))).toBe(0.5);
    expect(opinionOf(features.ofText('where is my parcel, the driver has not come'))).toBe(0);
    expect(features.ofText('hello').vector.at(-1)).toBe(1);
  });

  it('the language class marks a named language, not a request to reword', () => {
    const features = space(1);
    expect(languageOf(features.ofText('how do you say thank you in Greek?'))).toBe(
      DEFAULT_FEATURE_WEIGHTS.language,
    );
    expect(languageOf(features.ofText('paraphrase this in fewer words'))).toBe(0);
    expect(opinionOf(features.ofText('how do you say thank you in Greek?'))).toBe(0.5);
  });

  it('"polish" names a language only after "in", "into", "to"…: not nail polish, not polishing', () => {
    const features = space(1);
    const named = DEFAULT_FEATURE_WEIGHTS.language;
    expect(languageOf(features.ofText('translate this into Polish'))).toBe(named);
    expect(languageOf(features.ofText('how do I say goodbye in polish'))).toBe(named);
    expect(languageOf(features.ofText('polish my cover letter before I send it'))).toBe(0);
    expect(languageOf(features.ofText('my starter smells like nail polish remover'))).toBe(0);
  });

  it('scales with its weight, and a conversation counts each message by its weight', () => {
    const text = 'terrible, rude and slow';
    expect(opinionOf(space(2).ofText(text))).toBe(2);
    expect(opinionOf(space(0).ofText(text))).toBe(0);
    const parts = ['terrible, rude and slow', 'where is my parcel'].map((t, i) => ({
      text: t,
      weight: i === 0 ? 1 : 3,
      profile: embedder.profile(t),
    }));
    expect(opinionOf(space(1).combine(parts))).toBeCloseTo(0.25, 10);
  });
});
