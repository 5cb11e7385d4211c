import { describe, expect, it } from '@jest/globals';
import { jsonShapeProblem } from '../../../apps/gateway/src/http/json-shape-check.js';

const nested = (levels: number) => `{"x":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;
const values = (count: number) => `{"x":[${Array.from({ length: count }, () => '1').join(',')}]}`;
const keys = (count: number) =>
  `{${Array.from({ length: count }, (_, index) => `"k${index}":{}`).join(',')}}`;
const row = `[${Array.from({ length: 4000 }, () => '1').join(',')}]`;
const rows = (count: number) => `{"x":[${Array.from({ length: count }, () => row).join(',')}]}`;

describe('jsonShapeProblem: the body pipes’ bounds, on the text before it is parsed', () => {
  it('accepts 65 levels (the pipes’ 64 below the root) and refuses 66', () => {
    expect(jsonShapeProblem(nested(65))).toBeUndefined();
    expect(jsonShapeProblem(nested(66))).toEqual({
      message: expect.stringContaining('is nested more than 64 levels deep'),
      param: `x${'.0'.repeat(64)}`,
    });
  });

  it('counts keys and array items, as the pipes do, and refuses over 100 000 of them', () => {
    expect(jsonShapeProblem(keys(100_000))).toBeUndefined();
    expect(jsonShapeProblem(keys(100_001))).toEqual({
      message: expect.stringContaining('more than 100000 JSON values'),
      param: '(body)',
    });
    // 25 rows: one key, 24 commas between rows, 25 × 3 999 within them
    expect(jsonShapeProblem(rows(25))).toBeUndefined();
    expect(jsonShapeProblem(rows(26))?.param).toBe('x');
  });

  it('refuses an array over 4096 items with its length, however many values that makes', () => {
    expect(jsonShapeProblem(values(4096))).toBeUndefined();
    expect(jsonShapeProblem(values(4097))).toEqual({
      message:
        'Invalid request body: x has 4097 elements; at most 4096 are accepted. Send fewer ' +
        '(split the conversation or the list).',
      param: 'x',
    });
    expect(jsonShapeProblem(values(300_000))?.message).toContain('x has 300000 elements');
  });

  it('does not count what strings hold, escaped quotes and backslashes included', () => {
    const text = `"a \\" [[[ ,,, \\\\" `;
    const body = JSON.stringify({ x: `${'[{,'.repeat(200_000)}"\\` }) + ' ';
    expect(jsonShapeProblem(`{"k":${JSON.stringify(text)}}`)).toBeUndefined();
    expect(jsonShapeProblem(body)).toBeUndefined();
    // a string closed after an escaped backslash, then real structure
    expect(jsonShapeProblem(`{"k":"\\\\",${'"a":['.repeat(70)}`)?.param).toBe(
      `a${'.0'.repeat(64)}`,
    );
  });

  it('leaves a malformed text (an unclosed string) to the parser', () => {
    expect(jsonShapeProblem(`{"k":"${'['.repeat(100)}`)).toBeUndefined();
  });
});
