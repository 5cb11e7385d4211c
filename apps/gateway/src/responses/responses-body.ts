import { z } from 'zod';
import {
  failoverList,
  jsonObject,
  modelName,
  nonEmpty,
  shapes,
  toolName,
  unknownTag,
  unofferedToolIssue,
} from '../http/wire-schema.js';
import { imageUrlProblem, isBase64 } from '../http/wire-media.js';
import { REASONING_EFFORTS, serviceTier } from '../http/wire-sampling.js';

/**
 * An OpenAI Responses body: its one description (type, check, wording; see WireBodyPipe).
 * Unknown extra fields are tolerated (the SDKs send some, e.g. `include`, `reasoning`); what
 * would need stored state is refused by name, so a client learns to send the whole conversation.
 */

/** Bounds the work one body can ask for, as chat completions' MAX_MESSAGES does. */
export const MAX_INPUT_ITEMS = 4096;
export const MAX_PARTS = 256;
export const MAX_TOOLS = 128;

const STORED =
  'this gateway stores no responses or items; send the whole conversation in input ' +
  '(with the AI SDK: providerOptions.openai.store = false)';
const STATELESS = 'this gateway stores no responses; send the whole conversation in input';
const PDF_DATA = 'data:application/pdf;base64,';

const inputPart = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.enum(['input_text', 'output_text']), text: z.string() }),
    z.object({ type: z.literal('refusal'), refusal: z.string() }),
    z
      .object({
        type: z.literal('input_image'),
        image_url: z.string().nullish(),
        file_id: z.unknown().optional(),
      })
      .check((context) => {
        const { file_id: fileId, image_url: url } = context.value;
        if (fileId != null) {
          problem(context, 'file_id', `${STORED}; send image_url (a URL or data URL)`);
        } else if (!url) {
          problem(context, 'image_url', 'must be a URL or a data: URL');
        } else {
          const wrong = imageUrlProblem(url);
          if (wrong) problem(context, 'image_url', wrong);
        }
      }),
    z
      .object({
        type: z.literal('input_file'),
        file_data: z.string().nullish(),
        file_id: z.unknown().optional(),
      })
      .check((context) => {
        const { file_id: fileId, file_data: data } = context.value;
        if (fileId != null) problem(context, 'file_id', `${STORED}; send file_data`);
        else if (!data?.startsWith(PDF_DATA) || !isBase64(data.slice(PDF_DATA.length))) {
          problem(
            context,
            'file_data',
            'must be a data:application/pdf;base64 URL (only PDFs are supported)',
          );
        }
      }),
  ],
  {
    error: unknownTag(
      'type',
      {},
      () => 'must be one of input_text, output_text, refusal, input_image, input_file',
    ),
  },
);

function problem(context: z.core.ParsePayload<unknown>, field: string, message: string): void {
  context.issues.push({ code: 'custom', input: context.value, path: [field], message });
}

const MEDIA: Readonly<Record<string, string>> = { input_image: 'images', input_file: 'files' };

const messageItem = z
  .object({
    type: z.literal('message').optional(),
    role: z.enum(['user', 'assistant', 'system', 'developer']),
    content: z.union([z.string(), z.array(inputPart).min(1).max(MAX_PARTS)], {
      error: shapes(`must be a string or 1 to ${MAX_PARTS} content parts`),
    }),
    id: z.string().nullish(),
  })
  .check((context) => {
    const { role, content } = context.value;
    if (role === 'user' || typeof content === 'string') return;
    const index = content.findIndex((part) => MEDIA[part.type] !== undefined);
    if (index < 0) return;
    context.issues.push({
      code: 'custom',
      input: content[index],
      path: ['content', index],
      message: `only a user message takes ${MEDIA[content[index]!.type]}`,
    });
  });

const inputItem = z.discriminatedUnion(
  'type',
  [
    messageItem,
    z.object({
      type: z.literal('function_call'),
      call_id: nonEmpty,
      name: nonEmpty,
      arguments: z.string(),
      id: z.string().nullish(),
    }),
    z.object({
      type: z.literal('function_call_output'),
      call_id: nonEmpty,
      output: z.union(
        [
          z.string(),
          z.array(z.object({ type: z.string().optional(), text: z.string() })).max(MAX_PARTS),
        ],
        { error: shapes('must be a string or an array of text parts') },
      ),
    }),
    // a model's earlier reasoning: nothing for the router to send on
    z.object({ type: z.literal('reasoning') }),
  ],
  {
    error: unknownTag(
      'type',
      { item_reference: `an item_reference cannot be resolved: ${STORED}` },
      (type) => `'${type}' is not supported here (message, function_call, function_call_output)`,
    ),
  },
);

const functionTool = z.discriminatedUnion(
  'type',
  [
    z.object({
      type: z.literal('function'),
      name: toolName,
      description: z.string().nullish(),
      parameters: jsonObject.nullish(),
      strict: z.boolean().nullish(),
    }),
  ],
  {
    error: unknownTag(
      'type',
      {},
      (type) =>
        `'${type}': built-in tools (web_search, file_search, code_interpreter…) are not ` +
        'available on this gateway; only function tools',
    ),
  },
);

type NamedChoice = { type: 'function'; name: string };

const toolChoice = z.union(
  [
    z.enum(['auto', 'required', 'none']),
    z.custom<NamedChoice>((value) => {
      const choice = value as Partial<NamedChoice> | null;
      return typeof choice === 'object' && choice?.type === 'function' && !!choice.name;
    }),
  ],
  { error: shapes("must be one of auto, required, none or { type: 'function', name }") },
);

const textFormat = z.discriminatedUnion('type', [
  z.object({ type: z.enum(['text', 'json_object']) }),
  z.object({
    type: z.literal('json_schema'),
    name: nonEmpty,
    schema: jsonObject,
    strict: z.boolean().nullish(),
    description: z.string().optional(),
  }),
]);

const metadata = z.custom<Record<string, string>>(
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.keys(value).length <= 16 &&
    Object.values(value).every((entry) => typeof entry === 'string' && entry.length <= 512),
  { error: 'must be an object of at most 16 string values of at most 512 characters' },
);

export const responsesBody = z
  .object({
    model: modelName,
    input: z.union([z.string(), z.array(inputItem).min(1).max(MAX_INPUT_ITEMS)], {
      error: shapes('must be a string or a non-empty array of input items'),
    }),
    instructions: z.string().nullish(),
    tools: z.array(functionTool).max(MAX_TOOLS).nullish(),
    tool_choice: toolChoice.nullish(),
    text: z.object({ format: textFormat.nullish(), verbosity: z.string().nullish() }).nullish(),
    temperature: z.number().min(0).max(2).nullish(),
    top_p: z.number().min(0).max(1).nullish(),
    max_output_tokens: z.int().min(1).nullish(),
    stream: z.boolean().nullish(),
    store: z.boolean().nullish(),
    parallel_tool_calls: z.boolean().nullish(),
    user: z.string().max(256).nullish(),
    top_logprobs: z.int().min(0).max(20).nullish(),
    reasoning: z.object({ effort: z.enum(REASONING_EFFORTS).nullish() }).nullish(),
    service_tier: serviceTier.nullish(),
    metadata: metadata.nullish(),
    previous_response_id: z.null({ error: STATELESS }).optional(),
    conversation: z.null({ error: STATELESS }).optional(),
    background: z
      .literal(false, { error: 'responses run in the request here; omit background' })
      .nullish(),
    models: failoverList(),
  })
  .check((context) => {
    const { tool_choice: choice, tools } = context.value;
    const forced = typeof choice === 'object' && choice !== null;
    const issue = unofferedToolIssue(
      forced ? { name: choice.name, input: choice } : undefined,
      tools?.map((tool) => tool.name),
      'function',
    );
    if (issue) context.issues.push(issue);
  });

export type ResponsesRequest = z.output<typeof responsesBody>;
export type ResponsesInputItem = z.output<typeof inputItem>;
export type ResponsesInputPart = z.output<typeof inputPart>;
export type ResponsesFunctionTool = z.output<typeof functionTool>;
export type ResponsesToolChoice = z.output<typeof toolChoice>;
export type ResponsesTextFormat = z.output<typeof textFormat>;
