/** The answers of OpenAI's Responses API that the gateway writes (the body: responses-body.ts). */
import type {
  ResponsesFunctionTool,
  ResponsesTextFormat,
  ResponsesToolChoice,
} from './responses-body.js';

export interface ResponsesOutputText {
  type: 'output_text';
  text: string;
  annotations: never[];
  /** Token logprobs when `top_logprobs` asked for them and the upstream gave them. */
  logprobs: ResponsesTokenLogprob[];
}

interface ResponsesTopLogprob {
  token: string;
  logprob: number;
  bytes: number[];
}

export interface ResponsesTokenLogprob extends ResponsesTopLogprob {
  top_logprobs: ResponsesTopLogprob[];
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
  reasoning: { effort: string | null; summary: null };
  store: boolean;
  temperature: number | null;
  top_p: number | null;
  text: { format: ResponsesTextFormat };
  tool_choice: ResponsesToolChoice;
  tools: ResponsesFunctionTool[];
  truncation: 'disabled';
  user?: string;
}
