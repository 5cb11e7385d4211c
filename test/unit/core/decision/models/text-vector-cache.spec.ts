import { describe, expect, it } from '@jest/globals';
import { TextVectorCache } from '../../../../../src/core/decision/models/text-vector-cache.js';

describe('TextVectorCache', () => {
  it('keeps vectors by text and drops the oldest entry when full', () => {
    const cache = new TextVectorCache<number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('a', 3); // replacing does not evict
    expect(cache.size).toBe(2);
    cache.set('c', 4);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBe(2);
    expect(cache.get('c')).toBe(4);
    expect(cache.size).toBe(2);
  });
});
