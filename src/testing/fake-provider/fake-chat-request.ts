/** A chat request as the fake provider understands it, whichever API dialect carried it. */
export interface FakeChatRequest {
  dialect: 'openai' | 'anthropic';
  model: string;
  messages: FakeMessage[];
  tools: Array<{ name: string; parameters?: Record<string, unknown> }>;
  toolChoice: 'auto' | 'required' | 'none' | { name: string };
  /** Set when a JSON answer is requested; `schema` is absent for plain JSON mode. */
  json?: { schema?: Record<string, unknown> };
  maxTokens?: number;
  stop: string[];
  stream: boolean;
  /** OpenAI only: `stream_options.include_usage`. */
  includeUsage: boolean;
  logprobs: boolean;
  topLogprobs: number;
  /** The raw request body. */
  body: Record<string, unknown>;
}

export interface FakeMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  text: string;
  toolCallNames?: string[];
  /** For tool results: the name of the tool, when the dialect says it (or it can be inferred). */
  toolName?: string;
}

/** A scripted answer, set with `provider.setAnswer(model, answer)`. */
export interface FakeAnswer {
  text?: string;
  toolCalls?: Array<{ name: string; arguments: Record<string, unknown> | string; id?: string }>;
  finishReason?: 'stop' | 'length' | 'tool_calls' | 'content_filter';
  /**
   * The first token's most likely alternatives, most likely first, reported as its
   * `top_logprobs` when the request asks for logprobs (the first entry should be the token sent).
   */
  firstTokenTopLogprobs?: Array<{ token: string; logprob: number }>;
}

export type FakeAnswerSource = FakeAnswer | ((request: FakeChatRequest) => FakeAnswer);

/** A model name containing `no-usage` answers without `usage`, plain or streamed, as some servers do. */
export function reportsUsage(request: FakeChatRequest): boolean {
  return !request.model.includes('no-usage');
}
