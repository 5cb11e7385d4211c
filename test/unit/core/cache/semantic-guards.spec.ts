import { describe, expect, it } from '@jest/globals';
import { semanticGuard } from '../../../../src/core/cache/semantic-guards.js';

const same = (a: string, b: string) => semanticGuard(a) === semanticGuard(b);

describe('semanticGuard', () => {
  it('lets a paraphrase through', () => {
    expect(same('What is the capital of France?', "what's the capital city of France")).toBe(true);
    expect(same('Tell me about Paris.', 'Please describe Paris')).toBe(true);
  });

  it.each([
    ['a negation', 'Is Paris the capital of France?', 'Is Paris not the capital of France?'],
    ['a contracted negation', 'Does it work on Linux?', "Doesn't it work on Linux?"],
    ['a number', 'List 3 rivers of Spain', 'List 5 rivers of Spain'],
    ['a number word', 'Give me two examples', 'Give me three examples'],
    ['a named entity', 'What is the capital of France?', 'What is the capital of Germany?'],
    ['a camelCase identifier', 'What does getUserName return?', 'What does getUserId return?'],
    ['a snake_case identifier', 'Explain max_tokens', 'Explain top_p'],
    ['a code span', 'What does `a.b()` do?', 'What does `a.c()` do?'],
  ])('tells %s apart', (_, a, b) => {
    expect(same(a, b)).toBe(false);
  });

  it('does not read "want" or "what" as a negation', () => {
    expect(same('I want a poem about the sea', 'I would like a poem about the sea')).toBe(true);
  });
});
