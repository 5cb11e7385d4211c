import { describe, expect, it } from '@jest/globals';
import { logSafe } from '../../../../src/core/observability/log-safe.js';

describe('logSafe', () => {
  it('escapes newlines, carriage returns and tabs by name', () => {
    expect(logSafe('a\nb\rc\td')).toBe('a\\nb\\rc\\td');
  });

  it('escapes other C0/C1 controls, DEL and the Unicode line separators as \\u escapes', () => {
    expect(logSafe('\u001b[31mred\u007f\u0085\u2028\u2029')).toBe(
      '\\u001b[31mred\\u007f\\u0085\\u2028\\u2029',
    );
  });

  it('escapes the bidirectional formatting characters, so text reads in the order it came', () => {
    expect(logSafe('route \u202eeulav\u202c \u2066x\u2069 \u200f\u061c')).toBe(
      'route \\u202eeulav\\u202c \\u2066x\\u2069 \\u200f\\u061c',
    );
  });

  it('leaves printable text, quotes and non-ASCII letters alone', () => {
    const text = `model 'gpt-4o' said "héllo" — 日本語 ✓`;
    expect(logSafe(text)).toBe(text);
  });

  it('keeps a forged log line on the line it came in on', () => {
    const forged = logSafe("unknown model 'x'\n[Nest] 1 - LOG admin logged in");
    expect(forged.split('\n')).toHaveLength(1);
    expect(forged).toContain("'x'\\n[Nest]");
  });
});
