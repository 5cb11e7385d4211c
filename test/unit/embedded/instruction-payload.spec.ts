import { describe, expect, it } from '@jest/globals';
import { lastUserSplit, splitInstruction } from '../../../src/embedded/instruction-payload.js';

const article =
  'The home side scored twice in the first half. The visitors pulled one back after the break, ' +
  'but the goalkeeper saved a late penalty and the crowd sang until the final whistle.';

describe('splitInstruction', () => {
  it('finds an instruction before a colon, a line break or an opening quote', () => {
    expect(splitInstruction(`Summarize this: ${article}`)).toEqual({
      instruction: 'Summarize this',
      payload: article,
    });
    expect(splitInstruction(`Translate to German\n${article}`)?.instruction).toBe(
      'Translate to German',
    );
    // The quote stays with the payload.
    expect(splitInstruction(`Is this a scam? "${article}"`)).toEqual({
      instruction: 'Is this a scam?',
      payload: `"${article}"`,
    });
  });

  it('finds an instruction after the payload, past its last line break or closing quote', () => {
    expect(splitInstruction(`${article}\n\nrewrite this politely`)).toEqual({
      instruction: 'rewrite this politely',
      payload: article,
    });
    expect(splitInstruction(`"${article}" What does this say in English?`)?.instruction).toBe(
      'What does this say in English?',
    );
  });

  it('leaves a clause that neither makes a request nor points at the payload in the payload', () => {
    // A pasted error log with a question: the log is the task, not a payload to route around.
    const log =
      'Traceback (most recent call last):\n  File "app.py", line 12, in <module>\n' +
      "    import pandas as pd\nModuleNotFoundError: No module named 'pandas'\nany idea?";
    expect(splitInstruction(log)).toBeUndefined();
    expect(splitInstruction(`Last night at the stadium: ${article}`)).toBeUndefined();
  });

  it('needs a short instruction and a payload at least as long and of ten words', () => {
    expect(splitInstruction('Translate this: good morning to you all')).toBeUndefined();
    const long =
      'Please could you write this out again for me in a much more formal register now, since ' +
      'the board reads every word of it before the meeting';
    expect(splitInstruction(`${long}: ${article}`)).toBeUndefined();
    // A request may carry a sentence of context before its colon.
    const context = 'I was offline all day, what did I miss? Summarize this group chat';
    expect(splitInstruction(`${context}: ${article}`)?.instruction).toBe(context);
    // No delimiter: one sentence, not an instruction plus a payload.
    expect(splitInstruction(`Summarize the match where ${article}`)).toBeUndefined();
  });

  it('looks at the last user message of a conversation only', () => {
    expect(
      lastUserSplit({
        messages: [
          { role: 'user', text: `Summarize this: ${article}` },
          { role: 'assistant', text: 'The home side won 2-1.' },
          { role: 'user', text: 'Who saved the penalty?' },
        ],
      })?.instruction,
    ).toBeUndefined();
    expect(
      lastUserSplit({
        messages: [
          { role: 'user', text: 'Hi' },
          { role: 'user', text: `Make this funny: ${article}` },
        ],
      })?.instruction,
    ).toBe('Make this funny');
    expect(lastUserSplit(`Fix this: ${article}`)?.instruction).toBe('Fix this');
  });
});
