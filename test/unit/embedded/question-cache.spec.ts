import { describe, expect, it } from '@jest/globals';
import { QuestionCache } from '../../../src/embedded/question-cache.js';

const options = (examples: string[]) => [
  { name: 'a', description: 'first route', examples },
  { name: 'b', description: 'second route' },
];

describe('QuestionCache', () => {
  it('finds a question again from new option objects with the same texts', () => {
    const cache = new QuestionCache<number>(10);
    let created = 0;
    expect(cache.get(options(['x', 'y']), () => ++created)).toBe(1);
    expect(cache.get(options(['x', 'y']), () => ++created)).toBe(1);
    expect(created).toBe(1);
  });

  it('tells apart questions whose short keys collide (same names and lengths)', () => {
    const cache = new QuestionCache<string>(10);
    expect(cache.get(options(['xy']), () => 'first')).toBe('first');
    expect(cache.get(options(['zw']), () => 'second')).toBe('second');
    expect(cache.get(options(['x', 'y']), () => 'third')).toBe('third');
    expect(cache.get(options(['xy']), () => 'again')).toBe('first');
    expect(cache.size).toBe(3);
  });

  it('drops the oldest question when full', () => {
    const cache = new QuestionCache<string>(2);
    cache.get(options(['1']), () => 'one');
    cache.get(options(['2']), () => 'two');
    cache.get(options(['3']), () => 'three');
    expect(cache.size).toBe(2);
    expect(cache.get(options(['1']), () => 'one again')).toBe('one again');
    expect(cache.get(options(['3']), () => 'three again')).toBe('three');
  });
});
