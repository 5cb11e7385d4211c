/** The answers of OpenAI's chat completions that the gateway writes (the body: chat-completion-body.ts). */

/** A tool call of an answer (requests' tool calls: chat-completion-body.ts). */
export interface WireToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface WireUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  /** Of prompt_tokens, those the provider served from its prompt cache (when it said). */
  prompt_tokens_details?: { cached_tokens: number };
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
    /** The whole answer's token logprobs, on the finish chunk (clients append chunks' lists). */
    logprobs: WireLogprobs | null;
    finish_reason: string | null;
  }[];
  usage?: WireUsage | null;
}
