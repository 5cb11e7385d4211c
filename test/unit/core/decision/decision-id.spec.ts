import { describe, it, expect } from '@jest/globals';
import { newDecisionId } from '../../../../src/core/decision/decision-records.js';

describe('newDecisionId', () => {
  it('answers 128 random bits, URL-safe, never the same twice across refills of its pool', () => {
    // 4 KiB a pool, 16 bytes an id: 1,000 ids draw the pool four times
    const ids = Array.from({ length: 1_000 }, () => newDecisionId());
    for (const id of ids) {
      expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(Buffer.from(id, 'base64url')).toHaveLength(16);
    }
    expect(new Set(ids).size).toBe(ids.length);
  });
});
