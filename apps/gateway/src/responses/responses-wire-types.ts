/** The slice of OpenAI's Responses API that the gateway speaks. */

export type ResponsesInputPart =
  | { type: 'input_text'; text: string }
  | { type: 'output_text'; text: string }
  | { type: 'refusal'; refusal: string }
  | { type: 'input_image'; image_url?: string; file_id?: string; detail?: string }
  | { type: 'input_file'; file_data?: string; file_id?: string; filename?: string };

export type ResponsesInputItem =
  | {
      type?: 'message';
      role: 'user' | 'assistant' | 'system' | 'developer';
      content: string | ResponsesInputPart[];
      id?: string;
    }
  | { type: 'function_call'; call_id: string; name: string; arguments: string; id?: string }
  | {
      type: 'function_call_output';
      call_id: string;
      output: string | { type: 'input_text'; text: string }[];
    }
  /** What a client that kept only ids sends; this gateway stores nothing to look them up in. */
  | { type: 'item_reference'; id: string }
  | { type: 'reasoning'; id?: string };

export interface ResponsesFunctionTool {
  type: 'function';
  name: string;
  description?: string | null;
  parameters?: Record<string, unknown> | null;
  strict?: boolean | null;
}

export type ResponsesToolChoice = 'auto' | 'required' | 'none' | { type: 'function'; name: string };

export type ResponsesTextFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | {
      type: 'json_schema';
      name: string;
      schema: Record<string, unknown>;
      strict?: boolean | null;
      description?: string;
    };

export interface ResponsesRequest {
  model: string;
  input: string | ResponsesInputItem[];
  instructions?: string | null;
  tools?: ResponsesFunctionTool[];
  tool_choice?: ResponsesToolChoice;
  text?: { format?: ResponsesTextFormat; verbosity?: string };
  temperature?: number | null;
  top_p?: number | null;
  max_output_tokens?: number | null;
  stream?: boolean | null;
  store?: boolean | null;
  metadata?: Record<string, string> | null;
  parallel_tool_calls?: boolean | null;
  user?: string;
  /** Per-request failover order, as on chat completions. */
  models?: string[];
}

export interface ResponsesOutputText {
  type: 'output_text';
  text: string;
  annotations: never[];
  logprobs: never[];
}

export type ResponsesOutputItem =
  | {
      type: 'message';
      id: string;
      status: 'in_progress' | 'completed' | 'incomplete';
      role: 'assistant';
      content: ResponsesOutputText[];
    }
  | {
      type: 'function_call';
      id: string;
      call_id: string;
      name: string;
      arguments: string;
      status: 'in_progress' | 'completed' | 'incomplete';
    };

export interface ResponsesUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
  /** Not OpenAI's (OpenRouter's, as on chat): USD of the request, when the model has pricing. */
  cost?: number;
}

export interface ResponseObject {
  id: string;
  object: 'response';
  created_at: number;
  status: 'in_progress' | 'completed' | 'incomplete' | 'failed';
  model: string;
  output: ResponsesOutputItem[];
  usage: ResponsesUsage | null;
  error: { code: string; message: string } | null;
  incomplete_details: { reason: 'max_output_tokens' | 'content_filter' } | null;
  instructions: string | null;
  max_output_tokens: number | null;
  metadata: Record<string, string>;
  parallel_tool_calls: boolean;
  previous_response_id: null;
  reasoning: { effort: null; summary: null };
  store: boolean;
  temperature: number | null;
  top_p: number | null;
  text: { format: ResponsesTextFormat };
  tool_choice: ResponsesToolChoice;
  tools: ResponsesFunctionTool[];
  truncation: 'disabled';
  user?: string;
}
