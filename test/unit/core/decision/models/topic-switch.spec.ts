import { describe, expect, it } from '@jest/globals';
import { switchesTopic } from '../../../../../src/core/decision/models/topic-switch.js';

describe('switchesTopic', () => {
  it.each([
    'great. different question: how do I center a div',
    'thanks. unrelated - why does my script fail?',
    'merci. btw if something costs 40 euros with VAT, what is the net price?',
    'nice. By the way, when should I plant tulips?',
    'totally different: how much do I save at 5 % a year?',
    'lovely. quick one: how many seconds are in a week?',
    'separate thing - what is "see you tomorrow" in Mandarin?',
    'On another note, can you write a poem?',
    'switching gears, what is a good movie?',
  ])('sees a new topic announced: %s', (text) => {
    expect(switchesTopic(text)).toBe(true);
  });

  it.each([
    'another one, but sadder',
    'one more please',
    'and in Python?',
    'I just have a quick question',
    'shorter please',
    'what is the difference between these two?',
  ])('sees a follow-up: %s', (text) => {
    expect(switchesTopic(text)).toBe(false);
  });

  it('reads only the opening, so a pasted text saying "by the way" stays a follow-up', () => {
    const pasted = `and this one too: ${'The committee met on Tuesday. '.repeat(4)}By the way, lunch was late.`;
    expect(switchesTopic(pasted)).toBe(false);
  });
});
