import { describe, expect, it } from '@jest/globals';
import { CallSeriesCache } from '../../../../src/nest/metrics/call-series.js';

describe('CallSeriesCache', () => {
  it('maps each name once per series and keeps the label sets of every outcome and token type', () => {
    const asked: string[] = [];
    const cache = new CallSeriesCache((name, label) => {
      asked.push(`${label}:${String(name)}`);
      return name === undefined || name === '' ? '' : `${label}-${name}`;
    });

    const first = cache.of('auto', 'simple', 'up/a');
    expect(cache.of('auto', 'simple', 'up/a')).toBe(first);
    expect(asked).toEqual(['router:auto', 'route:simple', 'model:up/a']);
    expect(first.outcome.get('cancelled')).toEqual({
      router: 'router-auto',
      route: 'route-simple',
      model: 'model-up/a',
      outcome: 'cancelled',
    });
    expect(first.tokens.cache_write).toEqual({ ...first.labels, type: 'cache_write' });
    // an outcome no call has is not read from a prototype
    expect(first.outcome.get('constructor')).toBeUndefined();
    // a name absent and an empty one are the same series
    expect(cache.of(undefined, undefined, 'm')).toBe(cache.of('', '', 'm'));
  });

  it('starts over past 1,000 series and still labels every call right', () => {
    let calls = 0;
    const cache = new CallSeriesCache((name) => {
      calls++;
      return name ?? '';
    });
    const kept = cache.of('r', 'route', 'model-0');
    for (let i = 1; i <= 1_000; i++) cache.of('r', 'route', `model-${i}`);
    expect(calls).toBe(3 * 1_001);
    const again = cache.of('r', 'route', 'model-0');
    expect(again).not.toBe(kept);
    expect(again.labels).toEqual(kept.labels);
  });
});
