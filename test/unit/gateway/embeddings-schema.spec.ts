import { describe, expect, it } from '@jest/globals';
import { embeddingsBody } from '../../../apps/gateway/src/embeddings/embeddings-body.js';
import { WireBodyPipe } from '../../../apps/gateway/src/http/wire-body.pipe.js';
import { expectOnlyClientErrors, refusal, surfaceBodies, verdict } from './wire-body-fuzz.js';

const pipe = new WireBodyPipe(embeddingsBody);

describe('the embeddings body, described once (embeddingsBody)', () => {
  it('passes a text or a list of texts, with the optional fields', () => {
    expect(verdict(pipe, { model: 'e', input: 'hello' })).toHaveProperty('passed');
    expect(
      pipe.transform({
        model: 'e',
        input: ['a', 'b'],
        encoding_format: 'base64',
        dimensions: 8,
        user: 'u',
        models: ['f'],
        vendor_extra: 1,
      }),
    ).toEqual({
      model: 'e',
      input: ['a', 'b'],
      encoding_format: 'base64',
      dimensions: 8,
      user: 'u',
      models: ['f'],
    });
  });

  it('reports a missing field as missing, and refuses token ids by name', () => {
    expect(refusal(pipe, { model: 'e' })).toEqual({
      message: 'Invalid request body: input is required',
      param: 'input',
    });
    expect(refusal(pipe, { model: 'e', input: [[1, 2]] }).message).toContain(
      'input.0 must be a text: token-id arrays are not supported',
    );
    expect(refusal(pipe, { model: 'e', input: [] }).message).toContain(
      'input must be a string or 1 to 2048 strings',
    );
    expect(refusal(pipe, { model: 'e', input: 'x'.repeat(100_001) }).param).toBe('input');
    expect(refusal(pipe, { model: 'e', input: ['x'.repeat(100_001)] }).param).toBe('input.0');
  });

  it.each([
    ['', 'input'],
    [['a', ''], 'input.1'],
  ])('refuses an empty text (%j) by its path', (input, param) => {
    const answer = refusal(pipe, { model: 'e', input });

    expect(answer.param).toBe(param);
    expect(answer.message).toContain('must not be empty');
  });

  it('answers every body of the fuzz corpus with a pass or a 400, never anything else', () => {
    const { passed, refused } = expectOnlyClientErrors(pipe, surfaceBodies('/v1/embeddings'));
    expect(passed).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(passed);
  });
});
