import { describe, expect, it } from '@jest/globals';
import { jsonShapeProblem } from '../../../apps/gateway/src/http/json-shape-check.js';

const nested = (levels: number) => `{"x":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;
const values = (count: number) => `{"x":[${Array.from({ length: count }, () => '1').join(',')}]}`;

describe('jsonShapeProblem: the body pipes’ bounds, on the text before it is parsed', () => {
  it('accepts 65 levels (the pipes’ 64 below the root) and refuses 66', () => {
    expect(jsonShapeProblem(nested(65))).toBeUndefined();
    expect(jsonShapeProblem(nested(66))).toEqual({
      message: expect.stringContaining('is nested more than 64 levels deep'),
      param: `x${'.0'.repeat(64)}`,
    });
  });

  it('lets 100 000 commas through (the pipes count exactly) and refuses one more', () => {
    expect(jsonShapeProblem(values(100_001))).toBeUndefined();
    expect(jsonShapeProblem(values(100_002))).toEqual({
      message: expect.stringContaining('more than 100000 JSON values'),
      param: 'x',
    });
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
