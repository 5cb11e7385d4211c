import { readFileSync } from 'node:fs';
import type { DecisionInput } from '../core/decision/decision-model.js';
import { InvalidConfigurationException } from '../core/errors/exceptions.js';
import type { LabelledInput } from '../core/decision/decision-learning.js';

/** A learned-examples file is read at start-up: a bound keeps a wrong path from eating memory. */
const MAX_FILE_BYTES = 16 * 1024 * 1024;

/**
 * A decision router's `learned:` file: JSON Lines, one labelled message a line, either
 * `{"text": "...", "route": "billing"}` or `{"messages": [{"role": "user", "text": "..."}, …],
 * "route": "billing"}` (a conversation). Blank lines are skipped. Errors name the field and line.
 */
export function readLearnedExamples(path: string, field: string): LabelledInput[] {
  let text: string;
  try {
    const buffer = readFileSync(path);
    if (buffer.length > MAX_FILE_BYTES) {
      throw new Error(`it is larger than ${MAX_FILE_BYTES / 1024 / 1024} MB`);
    }
    text = buffer.toString('utf8');
  } catch (error) {
    throw new InvalidConfigurationException(
      `${field}: cannot read the learned examples file '${path}': ${(error as Error).message}`,
    );
  }
  const examples: LabelledInput[] = [];
  for (const [i, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    const where = `${field} line ${i + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new InvalidConfigurationException(`${where}: not a JSON object`);
    }
    examples.push(labelled(value, where));
  }
  return examples;
}

function labelled(value: unknown, where: string): LabelledInput {
  const { text, messages, route } = (value ?? {}) as Record<string, unknown>;
  if (typeof route !== 'string' || route.trim() === '') {
    throw new InvalidConfigurationException(`${where}: route must be a route name`);
  }
  let input: DecisionInput | undefined;
  if (typeof text === 'string' && text.trim() !== '') input = text;
  else if (Array.isArray(messages) && messages.length > 0) {
    const turns = messages.map((message: unknown) => {
      const { role, text: turn } = (message ?? {}) as Record<string, unknown>;
      if ((role !== 'user' && role !== 'assistant') || typeof turn !== 'string') {
        throw new InvalidConfigurationException(
          `${where}: messages must be { role: 'user' | 'assistant', text } objects`,
        );
      }
      return { role, text: turn } as { role: 'user' | 'assistant'; text: string };
    });
    input = { messages: turns };
  }
  if (input === undefined) {
    throw new InvalidConfigurationException(
      `${where}: give the message as "text" or a conversation as "messages"`,
    );
  }
  return { input, route };
}
