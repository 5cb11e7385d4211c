/** The slice of OpenAI's chat completions wire format that the gateway speaks. */

export type WireContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string; detail?: string } }
  | { type: 'input_audio'; input_audio: { data: string; format: string } }
  | { type: 'file'; file: { file_data?: string; filename?: string } };

export interface WireToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type WireTextContent = string | { type: 'text'; text: string }[];

export type WireMessage =
  | { role: 'system' | 'developer'; content: WireTextContent }
  | { role: 'user'; content: string | WireContentPart[]; name?: string }
  | { role: 'assistant'; content?: WireTextContent | null; tool_calls?: WireToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: WireTextContent };

export interface WireTool {
  type: 'function';
  function: { name: string; description?: string; parameters?: Record<string, unknown> };
}

export type WireToolChoice =
  'auto' | 'required' | 'none' | { type: 'function'; function: { name: string } };

export interface WireChatCompletionRequest {
  model: string;
  messages: WireMessage[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  temperature?: number;
  top_p?: number;
  max_tokens?: number;
  max_completion_tokens?: number;
  stop?: string | string[];
  tools?: WireTool[];
  tool_choice?: WireToolChoice;
  response_format?:
    | { type: 'text' }
    | { type: 'json_object' }
    | {
        type: 'json_schema';
        json_schema: { name: string; schema?: Record<string, unknown>; strict?: boolean };
      };
  /** Per-request failover order (OpenRouter's extension). */
  models?: string[];
  user?: string;
}

export interface WireUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  /** Not OpenAI's (OpenRouter's): USD of the request, when the serving model has pricing. */
  cost?: number;
}

export interface WireTokenLogprob {
  token: string;
  logprob: number;
  bytes: null;
  top_logprobs: { token: string; logprob: number; bytes: null }[];
}

export interface WireLogprobs {
  content: WireTokenLogprob[];
  refusal: null;
}

/** What the upstream said about how it served the call, passed on when it said it. */
export interface WireServiceFields {
  system_fingerprint?: string;
  service_tier?: string;
}

export interface WireChatCompletion extends WireServiceFields {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: {
    index: number;
    message: {
      role: 'assistant';
      content: string | null;
      refusal?: string;
      tool_calls?: WireToolCall[];
    };
    finish_reason: string;
    logprobs: WireLogprobs | null;
  }[];
  usage: WireUsage;
}

/** A streamed piece of a tool call: the first one of a call has its id, type and name. */
export interface WireToolCallDelta {
  index: number;
  id?: string;
  type?: 'function';
  function: { name?: string; arguments: string };
}

export interface WireChatCompletionChunk extends WireServiceFields {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: {
    index: number;
    delta: {
      role?: 'assistant';
      /** `null` in the first chunk, as OpenAI's: no text has arrived (yet). */
      content?: string | null;
      refusal?: null;
      tool_calls?: WireToolCallDelta[];
    };
    logprobs: null;
    finish_reason: string | null;
  }[];
  usage?: WireUsage | null;
}
