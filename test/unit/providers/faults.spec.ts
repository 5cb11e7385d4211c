import { describe, expect, it } from '@jest/globals';
import { faultInModelName, parseFault } from '../../../src/testing/index.js';

describe('fake provider fault names', () => {
  it.each([
    ['gpt-fault-429', { type: 'status', status: 429 }],
    [
      'fault-429-retry-after-1',
      { type: 'status', status: 429, retryAfter: { unit: 's', value: 1 } },
    ],
    [
      'fault-429-retry-after-ms-250',
      { type: 'status', status: 429, retryAfter: { unit: 'ms', value: 250 } },
    ],
    [
      'fault-503-retry-after-date-9',
      { type: 'status', status: 503, retryAfter: { unit: 'date', value: 9 } },
    ],
    ['x-fault-500-once', { type: 'status', status: 500, times: 1 }],
    ['fault-reset-times-3', { type: 'reset', times: 3 }],
    ['fault-slow-first-token-250', { type: 'slow-first-token', ms: 250 }],
    ['fault-cut-after-4', { type: 'cut-after', tokens: 4 }],
    ['fault-stall-after-0', { type: 'stall-after', tokens: 0 }],
    ['tools-fault-malformed-chunk', { type: 'malformed-chunk' }],
    ['fault-no-done', { type: 'no-done' }],
    ['fault-context-length', { type: 'context-length' }],
    ['fault-content-filter', { type: 'content-filter' }],
    ['fault-content-filter-finish', { type: 'content-filter-finish' }],
  ])('%s', (name, expected) => {
    expect(faultInModelName(name)).toMatchObject(expected);
  });

  it('finds none in ordinary names', () => {
    expect(faultInModelName('default-model')).toBeUndefined();
    expect(faultInModelName('gpt-4o')).toBeUndefined();
  });

  it('accepts a spec without the prefix for setFault', () => {
    expect(parseFault('503')).toMatchObject({ type: 'status', status: 503, spec: 'fault-503' });
  });
});
