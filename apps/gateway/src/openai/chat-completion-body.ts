import { z } from 'zod';
import {
  failoverList,
  jsonObject,
  modelName,
  nonEmpty,
  shapes,
  toolName,
  unofferedToolIssue,
} from '../http/wire-schema.js';
import { imageUrl } from '../http/wire-media.js';
import { logitBias, REASONING_EFFORTS, serviceTier } from '../http/wire-sampling.js';

/**
 * An OpenAI chat completions body: its one description, which gives its type, its check and its
 * wording (WireBodyPipe). Unknown extra fields are tolerated, as OpenAI's SDKs send some; an
 * optional field sent as `null` is absent, as OpenAI reads it.
 */

/**
 * Bounds the work one body can ask for: validation and mapping walk every message, and a body of
 * hundreds of thousands of tiny messages would hold the event loop for seconds.
 */
export const MAX_MESSAGES = 4096;

const textPart = z.object({ type: z.literal('text'), text: z.string() });

const contentPart = z.discriminatedUnion('type', [
  textPart,
  z.object({ type: z.literal('image_url'), image_url: z.object({ url: imageUrl }) }),
  z.object({
    type: z.literal('input_audio'),
    input_audio: z.object({ data: z.string(), format: z.string() }),
  }),
  z.object({
    type: z.literal('file'),
    file: z.object({ file_data: z.string().optional(), filename: z.string().optional() }),
  }),
]);

const mediaContent = z.union([z.string(), z.array(contentPart).min(1)], {
  error: shapes(
    'must be a string or an array of content parts (text, image_url, input_audio, file)',
  ),
});

type TextPart = z.output<typeof textPart>;

/**
 * Only user messages take media; the others take text parts only (as OpenAI's). The content is
 * parsed as a user's, so the refusal names the role; the check makes its output text parts only,
 * which the type says (a cast rather than a transform: a transform per message costs CPU).
 */
function textContent(role: string) {
  const problem =
    `must be a string or an array of text parts ({ type: 'text', text }); ` +
    `a ${role} message takes no media`;
  const textOnly = mediaContent.check((context) => {
    const content = context.value;
    if (typeof content === 'string' || content.every((part) => part.type === 'text')) return;
    context.issues.push({ code: 'custom', input: content, message: problem });
  });
  return textOnly as unknown as z.ZodType<string | TextPart[]>;
}

const toolCall = z.object({
  id: nonEmpty,
  type: z.literal('function'),
  function: z.object({ name: nonEmpty, arguments: z.string() }),
});

const message = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: textContent('system') }),
  z.object({ role: z.literal('developer'), content: textContent('developer') }),
  z.object({ role: z.literal('user'), content: mediaContent, name: z.string().nullish() }),
  z.object({
    role: z.literal('assistant'),
    content: textContent('assistant').nullish(),
    tool_calls: z.array(toolCall).nullish(),
  }),
  z.object({ role: z.literal('tool'), tool_call_id: nonEmpty, content: textContent('tool') }),
]);

const tool = z.object({
  type: z.literal('function'),
  function: z.object({
    name: toolName,
    description: z.string().nullish(),
    parameters: jsonObject.nullish(),
  }),
});

type NamedChoice = { type: 'function'; function: { name: string } };

const toolChoice = z.union(
  [
    z.enum(['auto', 'required', 'none']),
    z.custom<NamedChoice>((value) => {
      const choice = value as Partial<NamedChoice> | null;
      return (
        typeof choice === 'object' &&
        choice?.type === 'function' &&
        typeof choice.function?.name === 'string' &&
        choice.function.name !== ''
      );
    }),
  ],
  {
    error: shapes(
      "must be one of auto, required, none or { type: 'function', function: { name } }",
    ),
  },
);

const responseFormat = z.discriminatedUnion('type', [
  z.object({ type: z.enum(['text', 'json_object']) }),
  z.object({
    type: z.literal('json_schema'),
    json_schema: z.object(
      { name: nonEmpty, schema: jsonObject.nullish(), strict: z.boolean().nullish() },
      {
        error: (issue) =>
          issue.input === undefined
            ? "is required when type is 'json_schema' ({ name, schema })"
            : undefined,
      },
    ),
  }),
]);

export const chatCompletionBody = z
  .object({
    model: modelName,
    messages: z
      .array(message)
      .min(1)
      .max(MAX_MESSAGES, { error: `must contain at most ${MAX_MESSAGES} messages` }),
    stream: z.boolean().nullish(),
    /** One choice per request: a silent single answer to `n: 3` would look like a complete one. */
    n: z
      .literal(1, { error: 'must be 1: one choice per request is served; send n requests instead' })
      .nullish(),
    stream_options: jsonObject.nullish(),
    temperature: z.number().min(0).max(2).nullish(),
    top_p: z.number().min(0).max(1).nullish(),
    max_tokens: z.int().min(1).nullish(),
    max_completion_tokens: z.int().min(1).nullish(),
    stop: z
      .union([z.string(), z.array(z.string()).max(4)], {
        error: shapes('must be a string or an array of at most 4 strings'),
      })
      .nullish(),
    tools: z.array(tool).max(MAX_MESSAGES).nullish(),
    tool_choice: toolChoice.nullish(),
    response_format: responseFormat.nullish(),
    /** Fallbacks after `model`; an empty list means none (as LiteLLM and OpenRouter read it). */
    models: failoverList(),
    user: z.string().max(256).nullish(),
    seed: z.int().nullish(),
    frequency_penalty: z.number().min(-2).max(2).nullish(),
    presence_penalty: z.number().min(-2).max(2).nullish(),
    logit_bias: logitBias.nullish(),
    logprobs: z.boolean().nullish(),
    top_logprobs: z.int().min(0).max(20).nullish(),
    /** Not OpenAI's, but vLLM's and other compatible servers'; Anthropic's `top_k`. */
    top_k: z.int().min(1).nullish(),
    parallel_tool_calls: z.boolean().nullish(),
    reasoning_effort: z.enum(REASONING_EFFORTS).nullish(),
    service_tier: serviceTier.nullish(),
    /** The caller's prompt-cache key: passed to OpenAI-compatible providers, and keeps the prefix's model. */
    prompt_cache_key: z.string().min(1).max(1024).nullish(),
  })
  .check((context) => {
    const { tool_choice: choice, tools } = context.value;
    const forced = typeof choice === 'object' && choice !== null;
    const issue = unofferedToolIssue(
      forced ? { name: choice.function.name, input: choice } : undefined,
      tools?.map((offered) => offered.function.name),
      'function',
    );
    if (issue) context.issues.push(issue);
  });

export type WireChatCompletionRequest = z.output<typeof chatCompletionBody>;
export type WireMessage = WireChatCompletionRequest['messages'][number];
export type WireContentPart = z.output<typeof contentPart>;
export type WireTextContent = string | TextPart[];
export type WireToolChoice = z.output<typeof toolChoice>;
