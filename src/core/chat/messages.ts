/** Chat messages: plain, JSON-serialisable objects discriminated by `role`. */

export interface SystemMessage {
  role: 'system';
  text: string;
}

export type TextContentPart = { type: 'text'; text: string };
export type MediaContentPart = {
  type: 'image' | 'audio' | 'video' | 'pdf';
  url?: string;
  data?: string;
  mimeType?: string;
};
export type ContentPart = TextContentPart | MediaContentPart;

export interface UserMessage {
  role: 'user';
  content: string | ContentPart[];
  name?: string;
}

export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

export interface AiMessage {
  role: 'assistant';
  text?: string;
  toolCalls?: ToolCall[];
  attributes?: Record<string, unknown>;
}

export interface ToolResultMessage {
  role: 'tool';
  toolCallId: string;
  toolName?: string;
  text: string;
}

export type ChatMessage = SystemMessage | UserMessage | AiMessage | ToolResultMessage;

export function systemMessage(text: string): SystemMessage {
  return { role: 'system', text };
}

export function userMessage(content: string | ContentPart[]): UserMessage {
  return { role: 'user', content };
}

export function aiMessage(textOrFields: string | Omit<AiMessage, 'role'>): AiMessage {
  return typeof textOrFields === 'string'
    ? { role: 'assistant', text: textOrFields }
    : { role: 'assistant', ...textOrFields };
}

export function toolResultMessage(
  toolCallId: string,
  text: string,
  toolName?: string,
): ToolResultMessage {
  return toolName === undefined
    ? { role: 'tool', toolCallId, text }
    : { role: 'tool', toolCallId, toolName, text };
}

/** The text of a user message: text parts joined by newlines, other parts as `[attached <type>]`. */
export function userMessageText(message: UserMessage): string {
  if (typeof message.content === 'string') return message.content;
  return message.content
    .map((part) => (part.type === 'text' ? part.text : `[attached ${part.type}]`))
    .join('\n');
}
