import { isObject, isText, offersTool } from '../http/json-checks.js';

/**
 * What is wrong with a Responses body's `input`, `tools` and `tool_choice` (each problem starts
 * with its path), or undefined. What the gateway cannot serve is named as such, so a client
 * learns to send the whole conversation rather than a stored id.
 */

/** Bounds the work one body can ask for, as chat completions' MAX_MESSAGES does. */
export const MAX_INPUT_ITEMS = 4096;
export const MAX_PARTS = 256;
export const MAX_TOOLS = 128;

const ROLES = ['user', 'assistant', 'system', 'developer'];
const STORED =
  'this gateway stores no responses or items; send the whole conversation in input ' +
  '(with the AI SDK: providerOptions.openai.store = false)';

export function inputProblem(input: unknown): string | undefined {
  if (typeof input === 'string') return undefined;
  if (!Array.isArray(input) || input.length === 0) {
    return ' must be a string or a non-empty array of input items';
  }
  if (input.length > MAX_INPUT_ITEMS) return ` must contain at most ${MAX_INPUT_ITEMS} items`;
  for (const [index, item] of input.entries()) {
    const problem = itemProblem(item);
    if (problem !== undefined) return `[${index}]${problem}`;
  }
  return undefined;
}

function itemProblem(value: unknown): string | undefined {
  if (!isObject(value)) return ' must be an input item object';
  const item = value;
  switch (item.type ?? 'message') {
    case 'message':
      if (!ROLES.includes(item.role as string)) {
        return `.role must be one of ${ROLES.join(', ')}`;
      }
      return contentProblem(item.content, item.role === 'user');
    case 'function_call':
      if (!isText(item.call_id)) return '.call_id must be a non-empty string';
      if (!isText(item.name)) return '.name must be a non-empty string';
      return typeof item.arguments === 'string' ? undefined : '.arguments must be a string';
    case 'function_call_output':
      if (!isText(item.call_id)) return '.call_id must be a non-empty string';
      if (typeof item.output === 'string') return undefined;
      return Array.isArray(item.output) &&
        item.output.length <= MAX_PARTS &&
        item.output.every((part) => isObject(part) && typeof part.text === 'string')
        ? undefined
        : '.output must be a string or an array of text parts';
    case 'item_reference':
      return `: an item_reference cannot be resolved: ${STORED}`;
    case 'reasoning':
      return undefined; // a model's earlier reasoning: nothing for the router to send on
    default:
      return (
        `.type '${String(item.type).slice(0, 40)}' is not supported here ` +
        '(message, function_call, function_call_output)'
      );
  }
}

function contentProblem(content: unknown, user: boolean): string | undefined {
  if (typeof content === 'string') return undefined;
  if (!Array.isArray(content) || content.length === 0 || content.length > MAX_PARTS) {
    return `.content must be a string or 1 to ${MAX_PARTS} content parts`;
  }
  for (const [index, part] of content.entries()) {
    const problem = partProblem(part, user);
    if (problem !== undefined) return `.content[${index}]${problem}`;
  }
  return undefined;
}

function partProblem(value: unknown, user: boolean): string | undefined {
  if (!isObject(value)) return ' must be a content part object';
  const part = value;
  switch (part.type) {
    case 'input_text':
    case 'output_text':
      return typeof part.text === 'string' ? undefined : '.text must be a string';
    case 'refusal':
      return typeof part.refusal === 'string' ? undefined : '.refusal must be a string';
    case 'input_image':
      if (!user) return ': only a user message takes images';
      if (part.file_id != null) return `.file_id: ${STORED}; send image_url (a URL or data URL)`;
      return isText(part.image_url) ? undefined : '.image_url must be a URL or a data: URL';
    case 'input_file':
      if (!user) return ': only a user message takes files';
      if (part.file_id != null) return `.file_id: ${STORED}; send file_data`;
      return typeof part.file_data === 'string' &&
        part.file_data.startsWith('data:application/pdf;base64,')
        ? undefined
        : '.file_data must be a data:application/pdf;base64 URL (only PDFs are supported)';
    default:
      return '.type must be one of input_text, output_text, refusal, input_image, input_file';
  }
}

export function toolsProblem(tools: unknown): string | undefined {
  if (!Array.isArray(tools)) return ' must be an array of function tools';
  if (tools.length > MAX_TOOLS) return ` must contain at most ${MAX_TOOLS} tools`;
  for (const [index, tool] of tools.entries()) {
    if (!isObject(tool)) return `[${index}] must be a tool object`;
    if (tool.type !== 'function') {
      return (
        `[${index}].type '${String(tool.type).slice(0, 40)}': built-in tools (web_search, ` +
        'file_search, code_interpreter…) are not available on this gateway; only function tools'
      );
    }
    if (!isText(tool.name)) return `[${index}].name must be a non-empty string`;
    if (tool.parameters != null && !isObject(tool.parameters)) {
      return `[${index}].parameters must be a JSON schema object`;
    }
  }
  return undefined;
}

export function toolChoiceProblem(choice: unknown, tools: unknown): string | undefined {
  if (choice === 'auto' || choice === 'required' || choice === 'none') return undefined;
  if (!isObject(choice) || choice.type !== 'function' || !isText(choice.name)) {
    return " must be one of auto, required, none or { type: 'function', name }";
  }
  return offersTool(tools, choice.name)
    ? undefined
    : ` names the function '${choice.name.slice(0, 64)}', which is not one of the tools`;
}
