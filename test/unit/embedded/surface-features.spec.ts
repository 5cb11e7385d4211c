import { describe, expect, it } from '@jest/globals';
import {
  SURFACE_FEATURE_COUNT,
  SURFACE_FEATURES,
  surfaceFeatures,
} from '../../../src/embedded/surface-features.js';
import { DEFAULT_FEATURE_WEIGHTS } from '../../../src/embedded/decision-features.js';
import { featureSpace } from '../../support/decision-space.js';

const QUOTE = SURFACE_FEATURES.indexOf('quote');

function quoted(text: string): number {
  const out = new Float64Array(SURFACE_FEATURE_COUNT);
  surfaceFeatures(text, 10, 10, false, out, 0);
  return out[QUOTE]!;
}

describe('surface features: quote', () => {
  it('sees double and single quoted spans', () => {
    expect(quoted('What does "je ne sais quoi" mean?')).toBe(1);
    expect(quoted('What does “carpe diem” mean?')).toBe(1);
    expect(quoted("Translate 'good morning' into Spanish")).toBe(1);
    expect(quoted("the log only says 'exec format error'. Any idea?")).toBe(1);
  });

  it('takes no apostrophes for quotes: contractions and possessives across a sentence', () => {
    // Before: any two apostrophes made a quote, so a long message with "I'm … I'd" looked like a
    // translation example with a quoted phrase (third writer's set: 65.6 → 68.3 % with this).
    expect(quoted("I'm a data analyst and I'd like a query for the top customers")).toBe(0);
    expect(quoted("don't know, won't go, can't say")).toBe(0);
    expect(quoted("the kids' toys and the dogs' beds")).toBe(0);
  });
});

describe('surface features: payload', () => {
  // Through the feature space, which finds the shape itself for a text alone.
  const space = featureSpace();
  const payload = (text: string) =>
    space.ofText(text).vector[2 * space.dimensions + SURFACE_FEATURES.indexOf('payload')]!;

  it('tells a request with a pasted text from a long request with its context', () => {
    expect(
      payload(
        'Summarize this: Our city council voted on Tuesday to convert three downtown parking lots into housing.',
      ),
    ).toBe(DEFAULT_FEATURE_WEIGHTS.surface);
    expect(
      payload(
        "I'm a teacher and tomorrow is our silly stories day. Can you write a story about a penguin who wants to fly?",
      ),
    ).toBe(0);
  });
});
