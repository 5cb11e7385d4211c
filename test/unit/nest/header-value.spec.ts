import { describe, expect, it } from '@jest/globals';
import { toHeaderValue } from '../../../src/nest/http/header-value.js';

describe('toHeaderValue: route and model names as header values Node accepts', () => {
  it('leaves printable ASCII alone, % included', () => {
    expect(toHeaderValue('openai/gpt-4o-mini')).toBe('openai/gpt-4o-mini');
    expect(toHeaderValue('100% sure')).toBe('100% sure');
  });

  it('percent-encodes UTF-8 outside ASCII, and % itself once anything is encoded', () => {
    expect(toHeaderValue('fake/gpt-ü')).toBe('fake/gpt-%C3%BC');
    expect(toHeaderValue('fake/gpt-Ā%')).toBe('fake/gpt-%C4%80%25');
    expect(decodeURIComponent(toHeaderValue('модель/😀'))).toBe('модель/😀');
  });

  it('encodes line breaks and control characters, so a name cannot add a header', () => {
    expect(toHeaderValue('a\r\nx-evil: 1')).toBe('a%0D%0Ax-evil: 1');
    expect(toHeaderValue('a\u0000b\tc')).toBe('a%00b%09c');
  });

  it('does not throw on a lone surrogate', () => {
    expect(toHeaderValue('x\ud800')).toBe('x%EF%BF%BD');
  });
});
