import { isObject, isText, offersTool } from '../http/json-checks.js';

/**
 * What is wrong with a Messages body's `messages`, `system`, `tools` and `tool_choice` (each
 * problem starts with its path), or undefined. Server tools and stored files are refused by name.
 */

export const MAX_MESSAGES = 4096;
export const MAX_BLOCKS = 256;
export const MAX_TOOLS = 128;

export function messagesProblem(messages: unknown): string | undefined {
  if (!Array.isArray(messages) || messages.length === 0) {
    return ' must be a non-empty array of messages';
  }
  if (messages.length > MAX_MESSAGES) return ` must contain at most ${MAX_MESSAGES} messages`;
  for (const [index, message] of messages.entries()) {
    if (!isObject(message)) return `[${index}] must be a message object`;
    if (message.role !== 'user' && message.role !== 'assistant') {
      return `[${index}].role must be user or assistant (system goes in the top-level system field)`;
    }
    const problem = contentProblem(message.content, message.role);
    if (problem !== undefined) return `[${index}].content${problem}`;
  }
  return undefined;
}

function contentProblem(content: unknown, role: 'user' | 'assistant'): string | undefined {
  if (typeof content === 'string') return undefined;
  if (!Array.isArray(content) || content.length === 0 || content.length > MAX_BLOCKS) {
    return ` must be a string or 1 to ${MAX_BLOCKS} content blocks`;
  }
  for (const [index, block] of content.entries()) {
    const problem = blockProblem(block, role);
    if (problem !== undefined) return `[${index}]${problem}`;
  }
  return undefined;
}

function blockProblem(value: unknown, role: 'user' | 'assistant'): string | undefined {
  if (!isObject(value)) return ' must be a content block object';
  const block = value;
  switch (block.type) {
    case 'text':
      return typeof block.text === 'string' ? undefined : '.text must be a string';
    case 'image':
    case 'document':
      if (role !== 'user') return `: only a user message takes a ${block.type}`;
      return sourceProblem(block.source, block.type);
    case 'tool_use':
      if (role !== 'assistant') return ': tool_use blocks belong to assistant messages';
      if (!isText(block.id)) return '.id must be a non-empty string';
      if (!isText(block.name)) return '.name must be a non-empty string';
      return isObject(block.input) ? undefined : '.input must be an object';
    case 'tool_result':
      if (role !== 'user') return ': tool_result blocks belong to user messages';
      if (!isText(block.tool_use_id)) return '.tool_use_id must be a non-empty string';
      if (block.content === undefined || typeof block.content === 'string') return undefined;
      return Array.isArray(block.content) &&
        block.content.length <= MAX_BLOCKS &&
        block.content.every(
          (part) => isObject(part) && part.type === 'text' && typeof part.text === 'string',
        )
        ? undefined
        : '.content must be a string or an array of text blocks';
    case 'thinking':
    case 'redacted_thinking':
      return undefined; // the model's earlier reasoning: not sent on
    default:
      return `.type '${String(block.type).slice(0, 40)}' is not supported (text, image, document, tool_use, tool_result)`;
  }
}

function sourceProblem(source: unknown, kind: 'image' | 'document'): string | undefined {
  if (!isObject(source)) return '.source must be an object';
  if (source.type === 'url') return isText(source.url) ? undefined : '.source.url must be a URL';
  if (source.type !== 'base64') {
    return `.source.type must be base64 or url (files are not stored on this gateway)`;
  }
  if (!isText(source.data)) return '.source.data must be base64 data';
  if (kind === 'document' && source.media_type !== 'application/pdf') {
    return '.source.media_type must be application/pdf (only PDF documents are supported)';
  }
  return isText(source.media_type) ? undefined : '.source.media_type must be a MIME type';
}

export function systemProblem(system: unknown): string | undefined {
  if (typeof system === 'string') return undefined;
  return Array.isArray(system) &&
    system.length <= MAX_BLOCKS &&
    system.every(
      (block) => isObject(block) && block.type === 'text' && typeof block.text === 'string',
    )
    ? undefined
    : ' must be a string or an array of text blocks';
}

export function toolsProblem(tools: unknown): string | undefined {
  if (!Array.isArray(tools)) return ' must be an array of tools';
  if (tools.length > MAX_TOOLS) return ` must contain at most ${MAX_TOOLS} tools`;
  for (const [index, tool] of tools.entries()) {
    if (!isObject(tool)) return `[${index}] must be a tool object`;
    if (tool.type !== undefined && tool.type !== 'custom') {
      return (
        `[${index}].type '${String(tool.type).slice(0, 40)}': server tools (web search, code ` +
        'execution…) are not available on this gateway; only client tools with an input_schema'
      );
    }
    if (!isText(tool.name)) return `[${index}].name must be a non-empty string`;
    if (!isObject(tool.input_schema)) return `[${index}].input_schema must be a JSON schema object`;
  }
  return undefined;
}

export function toolChoiceProblem(choice: unknown, tools: unknown): string | undefined {
  if (!isObject(choice)) return " must be an object { type: 'auto' | 'any' | 'none' | 'tool' }";
  if (choice.type === 'auto' || choice.type === 'any' || choice.type === 'none') return undefined;
  if (choice.type !== 'tool' || !isText(choice.name)) {
    return " must be { type: 'auto' | 'any' | 'none' } or { type: 'tool', name }";
  }
  return offersTool(tools, choice.name)
    ? undefined
    : ` names the tool '${choice.name.slice(0, 64)}', which is not one of the tools`;
}
