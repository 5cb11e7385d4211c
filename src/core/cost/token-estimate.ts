import type { ChatMessage } from '../chat/messages.js';
import type { ChatRequest } from '../chat/request.js';

export type TokenEstimator = (request: ChatRequest) => number;

/**
 * A rough size of what a request will cost before it is sent: about four characters per token
 * of prompt, plus the output it may produce. It only has to be fair between models, not exact:
 * the real usage replaces it when the answer arrives.
 */
export const estimateRequestTokens: TokenEstimator = (request) => {
  const characters = promptCharacters(request, false);
  const output = request.parameters?.maxOutputTokens ?? 0;
  // never zero: even an empty prompt occupies a model, and balancing needs something to count
  return Math.max(1, Math.ceil(characters / 4) + output);
};

/**
 * Prompt tokens of a request, estimated at four characters per token (no tokenizer needed), tool
 * schemas included: what a context window must hold and an input price is paid for.
 */
export function estimatePromptTokens(request: ChatRequest): number {
  return Math.ceil(promptCharacters(request, true) / 4);
}

/** Tokens of text, with the same four-characters rule. */
export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Characters of the messages and tools; `schemas`: the tools' JSON schemas too. */
function promptCharacters(request: ChatRequest, schemas: boolean): number {
  let characters = 0;
  for (const message of request.messages ?? []) characters += charactersOf(message);
  for (const tool of request.parameters?.tools ?? []) {
    characters += tool.name.length + (tool.description?.length ?? 0);
    if (schemas && tool.parameters) characters += JSON.stringify(tool.parameters).length;
  }
  return characters;
}

function charactersOf(message: ChatMessage): number {
  switch (message.role) {
    case 'system':
    case 'tool':
      return message.text?.length ?? 0;
    case 'user':
      if (typeof message.content === 'string') return message.content.length;
      return message.content.reduce(
        (sum, part) => sum + (part.type === 'text' ? part.text.length : 0),
        0,
      );
    case 'assistant':
      return (
        (message.text?.length ?? 0) +
        (message.toolCalls ?? []).reduce((sum, call) => sum + call.arguments.length, 0)
      );
    default:
      return 0;
  }
}
