import { describe, expect, it } from '@jest/globals';
import { isCatchAll } from '../../../src/embedded/catch-all.js';

const option = (name: string, description = name) => ({ name, description });

describe('isCatchAll', () => {
  it.each([
    ['general', 'General questions and conversation.'],
    ['Other', 'Other: anything not covered above.'],
    ['misc', 'Miscellaneous'],
    ['general-questions', 'Questions'],
    ['other_requests', 'Requests'],
    ['fallback', 'When nothing fits'],
    ['general#2', 'A second description of the general route'],
  ])('%s is a catch-all by its name', (name, description) => {
    expect(isCatchAll(option(name, description))).toBe(true);
  });

  it.each([
    'Anything else: opening hours, jobs, the company.',
    'Everything else the other routes do not handle',
    'Questions not covered by the other routes',
    'General questions, advice and conversation on any other subject.',
    'A catch-all for the rest',
  ])('a route described as "%s" is a catch-all whatever its name', (description) => {
    expect(isCatchAll(option('desk', description))).toBe(true);
  });

  it.each([
    ['billing', 'Bills, charges, payments and refunds.'],
    ['general-relativity', 'Physics: spacetime, gravity and black holes'],
    ['translate', 'Translate between English and any other language'],
    ['code', 'Python, Go and other programming languages'],
    ['feedback', 'Complaints, compliments and suggestions about any of our services'],
  ])('%s is a specific route', (name, description) => {
    expect(isCatchAll(option(name, description))).toBe(false);
  });
});
