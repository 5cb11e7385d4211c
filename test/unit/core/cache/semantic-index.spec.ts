import { describe, expect, it } from '@jest/globals';
import { SemanticIndex, unitVector } from '../../../../src/core/cache/semantic-index.js';

const v = (...values: number[]) => unitVector(values)!;

describe('SemanticIndex', () => {
  it('finds the closest question of the bucket with the same guard, above the threshold', () => {
    const index = new SemanticIndex(10);
    index.add('b', v(1, 0), 'g', 'east', 100);
    index.add('b', v(0.9, 0.1), 'g', 'near-east', 100);
    index.add('b', v(1, 0), 'other-guard', 'guarded', 100);
    index.add('c', v(1, 0), 'g', 'other-bucket', 100);
    const match = index.nearest('b', v(0.9, 0.1), 'g', 0.8, 0);
    expect(match?.key).toBe('near-east');
    expect(index.nearest('b', v(0, 1), 'g', 0.8, 0)).toBeUndefined();
    expect(index.nearest('b', v(1, 0), 'none', 0.5, 0)).toBeUndefined();
  });

  it('forgets expired questions and keeps at most maxEntries, the oldest forgotten first', () => {
    const index = new SemanticIndex(2);
    index.add('b', v(1, 0), 'g', 'first', 100);
    index.add('b', v(0, 1), 'g', 'second', 100);
    index.add('b', v(1, 1), 'g', 'third', 50);
    expect(index.size).toBe(2);
    expect(index.nearest('b', v(1, 0), 'g', 0.99, 0)).toBeUndefined();
    expect(index.nearest('b', v(1, 1), 'g', 0.99, 60)).toBeUndefined();
    expect(index.size).toBe(1);
    expect(index.nearest('b', v(0, 1), 'g', 0.99, 60)?.key).toBe('second');
  });

  it('has no direction for a zero vector', () => {
    expect(unitVector([0, 0])).toBeUndefined();
  });
});
