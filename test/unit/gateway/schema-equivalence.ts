import { expect } from '@jest/globals';
import type { JsonBodyValidationPipe } from '../../../src/nest/dto/json-body-validation.pipe.js';
import { hostileBodiesFor } from '../../../bench/lib/hostile-bodies.js';
import { FUZZED_SURFACES } from '../../../bench/lib/hostile-surfaces.js';

/** What a pipe answers: the body passed on, or the error's body. */
export async function outcome(pipe: JsonBodyValidationPipe, raw: string): Promise<unknown> {
  return pipe.transform(JSON.parse(raw)).then(
    (value) => ({ passed: value }),
    (error: { getResponse(): unknown }) => ({ refused: error.getResponse() }),
  );
}

/** The fuzz corpus of a surface other than chat completions: 3,000 bodies, one to three fields broken. */
export function surfaceBodies(path: string): string[] {
  const [, base, fields] = FUZZED_SURFACES.find(([surface]) => surface === path)!;
  return hostileBodiesFor(path, base, fields, 3_000).map((body) => body.raw);
}

/**
 * A surface's quick check over its fuzz corpus (the valid bodies, then `fuzzed`, those that parse):
 * the pipe with the schema answers every body as the pipe without it, and the schema passes some
 * of the broken ones but not most (the corpus breaks one to three fields of a valid body).
 */
export async function expectSameAnswers(
  fuzzed: readonly string[],
  valid: readonly object[],
  accepts: (body: object) => boolean,
  quick: JsonBodyValidationPipe,
  byDto: JsonBodyValidationPipe,
): Promise<void> {
  const bodies = [
    ...valid.map((body) => JSON.stringify(body)),
    ...fuzzed.filter((raw) => {
      try {
        JSON.parse(raw);
        return true;
      } catch {
        return false;
      }
    }),
  ];
  let quickly = 0;
  for (const raw of bodies) {
    const parsed = JSON.parse(raw) as unknown;
    if (typeof parsed === 'object' && parsed !== null && accepts(parsed)) quickly++;
    expect(await outcome(quick, raw)).toEqual(await outcome(byDto, raw));
  }
  expect(quickly).toBeGreaterThan(valid.length);
  expect(quickly).toBeLessThan(bodies.length / 2);
}
