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
import { base64Data, IMAGE_MEDIA_TYPES, isImageMediaType, webUrl } from '../http/wire-media.js';

/**
 * An Anthropic Messages body: its one description (type, check, wording; see WireBodyPipe).
 * Unknown extra fields (metadata, top_k, thinking…) are tolerated; server tools and stored files
 * are refused by name.
 */

export const MAX_MESSAGES = 4096;
export const MAX_BLOCKS = 256;
export const MAX_TOOLS = 128;

const textBlock = z.object({ type: z.literal('text'), text: z.string() });
const textBlocks = z.array(textBlock).max(MAX_BLOCKS);

const source = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('base64'), media_type: nonEmpty, data: base64Data }),
    z.object({ type: z.literal('url'), url: webUrl }),
  ],
  {
    error: unknownTag(
      'type',
      {},
      () => 'must be base64 or url (files are not stored on this gateway)',
    ),
  },
);

const image = z.object({ type: z.literal('image'), source }).check((context) => {
  const { source: given } = context.value;
  if (given.type === 'base64' && !isImageMediaType(given.media_type)) {
    context.issues.push({
      code: 'custom',
      input: given.media_type,
      path: ['source', 'media_type'],
      message: `must be one of ${IMAGE_MEDIA_TYPES.join(', ')}`,
    });
  }
});
// a plain-text document needs no file store: its text (`text`) or text blocks (`content`)
const documentSource = z.discriminatedUnion(
  'type',
  [
    ...source.options,
    z.object({ type: z.literal('text'), media_type: z.string().nullish(), data: z.string() }),
    z.object({
      type: z.literal('content'),
      content: z.union([z.string(), textBlocks], {
        error: shapes('must be a string or an array of text blocks'),
      }),
    }),
  ],
  {
    error: unknownTag(
      'type',
      {},
      () => 'must be base64, url, text or content (files are not stored on this gateway)',
    ),
  },
);
const document = z
  .object({ type: z.literal('document'), source: documentSource, title: z.string().nullish() })
  .check((context) => {
    const { source: given } = context.value;
    if (given.type === 'base64' && given.media_type !== 'application/pdf') {
      context.issues.push({
        code: 'custom',
        input: given.media_type,
        path: ['source', 'media_type'],
        message: 'must be application/pdf (only PDF documents are supported)',
      });
    }
  });
const toolUse = z.object({
  type: z.literal('tool_use'),
  id: nonEmpty,
  name: nonEmpty,
  input: jsonObject,
});
// the library's tool results are text: an image in one is refused by name, not as a bad text block
const toolResultBlock = z.discriminatedUnion('type', [textBlock], {
  error: unknownTag(
    'type',
    {},
    (type) => `'${type}' is not supported in a tool_result (tool results are text on this gateway)`,
  ),
});
const toolResult = z.object({
  type: z.literal('tool_result'),
  tool_use_id: nonEmpty,
  content: z
    .union([z.string(), z.array(toolResultBlock).max(MAX_BLOCKS)], {
      error: shapes('must be a string or an array of text blocks'),
    })
    .optional(),
  is_error: z.boolean().nullish(),
});
// the model's earlier reasoning: not sent on
const thinking = z.object({ type: z.enum(['thinking', 'redacted_thinking']) });

const SUPPORTED = 'is not supported (text, image, document, tool_use, tool_result)';
const blockTag = (misplaced: Readonly<Record<string, string>>) =>
  unknownTag('type', misplaced, (type) => `'${type}' ${SUPPORTED}`);

const userBlock = z.discriminatedUnion('type', [textBlock, image, document, toolResult, thinking], {
  error: blockTag({ tool_use: 'tool_use blocks belong to assistant messages' }),
});
const assistantBlock = z.discriminatedUnion('type', [textBlock, toolUse, thinking], {
  error: blockTag({
    tool_result: 'tool_result blocks belong to user messages',
    image: 'only a user message takes an image',
    document: 'only a user message takes a document',
  }),
});

const contentOf = <Block extends z.ZodType>(block: Block) =>
  z.union([z.string(), z.array(block).min(1).max(MAX_BLOCKS)], {
    error: shapes(`must be a string or 1 to ${MAX_BLOCKS} content blocks`),
  });

const message = z.discriminatedUnion(
  'role',
  [
    z.object({ role: z.literal('user'), content: contentOf(userBlock) }),
    z.object({ role: z.literal('assistant'), content: contentOf(assistantBlock) }),
  ],
  {
    error: unknownTag(
      'role',
      {},
      () => 'must be user or assistant (system goes in the top-level system field)',
    ),
  },
);

const tool = z.object({
  type: z
    .literal('custom', {
      error: (issue) =>
        `'${String(issue.input).slice(0, 40)}': server tools (web search, code execution…) are ` +
        'not available on this gateway; only client tools with an input_schema',
    })
    .optional(),
  name: toolName,
  description: z.string().nullish(),
  input_schema: jsonObject,
});

const toolChoice = z.discriminatedUnion(
  'type',
  [
    z.object({
      type: z.enum(['auto', 'any', 'none']),
      disable_parallel_tool_use: z.boolean().nullish(),
    }),
    z.object({
      type: z.literal('tool'),
      name: nonEmpty,
      disable_parallel_tool_use: z.boolean().nullish(),
    }),
  ],
  { error: shapes("must be { type: 'auto' | 'any' | 'none' } or { type: 'tool', name }") },
);

// structured outputs: `output_config.format` (GA), `output_format` (its beta name); the SDKs'
// `messages.parse` sends the first. Other output_config fields (effort) are tolerated.
const outputFormat = z.object({
  type: z.literal('json_schema', { error: "must be 'json_schema'" }),
  schema: jsonObject,
});

export const messagesBody = z
  .object({
    model: modelName,
    max_tokens: z.int().min(1),
    messages: z.array(message).min(1).max(MAX_MESSAGES),
    system: z
      .union([z.string(), textBlocks], {
        error: shapes('must be a string or an array of text blocks'),
      })
      .nullish(),
    stop_sequences: z.array(z.string()).max(16).nullish(),
    temperature: z.number().min(0).max(1).nullish(),
    top_p: z.number().min(0).max(1).nullish(),
    top_k: z.int().min(1).nullish(),
    metadata: z.object({ user_id: z.string().max(256).nullish() }).nullish(),
    stream: z.boolean().nullish(),
    tools: z.array(tool).max(MAX_TOOLS).nullish(),
    tool_choice: toolChoice.nullish(),
    models: failoverList(),
    output_config: z.object({ format: outputFormat.nullish() }).nullish(),
    output_format: outputFormat.nullish(),
  })
  .check((context) => {
    const { tool_choice: choice, tools } = context.value;
    const issue = unofferedToolIssue(
      choice?.type === 'tool' ? { name: choice.name, input: choice } : undefined,
      tools?.map((offered) => offered.name),
      'tool',
    );
    if (issue) context.issues.push(issue);
  });

export type AnthropicMessagesRequest = z.output<typeof messagesBody>;
export type AnthropicMessage = AnthropicMessagesRequest['messages'][number];
export type AnthropicBlock = z.output<typeof userBlock> | z.output<typeof assistantBlock>;
export type AnthropicSource = z.output<typeof source>;
export type AnthropicDocument = z.output<typeof document>;
export type AnthropicTool = z.output<typeof tool>;
export type AnthropicToolChoice = z.output<typeof toolChoice>;
