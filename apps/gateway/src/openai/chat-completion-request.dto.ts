import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Max,
  Min,
  ValidateIf,
  ValidateNested,
  registerDecorator,
  type ValidationArguments,
  type ValidationOptions,
} from 'class-validator';
import type { WireToolChoice } from './wire-types.js';

const PART_TYPES = ['text', 'image_url', 'input_audio', 'file'];

/**
 * `content` of a message: a string, or an array of well-formed content parts. Only user messages
 * take media; system, developer, assistant and tool messages take text parts only (as OpenAI's).
 */
function IsMessageContent(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isMessageContent',
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        message: (args) =>
          roleOf(args) === 'user'
            ? '$property must be a string or an array of content parts ' +
              `(${PART_TYPES.join(', ')}) with their fields`
            : `$property must be a string or an array of text parts ({ type: 'text', text }); ` +
              `a ${String(roleOf(args))} message takes no media`,
        ...options,
      },
      validator: {
        validate: (value: unknown, args) => {
          if (typeof value === 'string') return true;
          // an empty part list says nothing; /chat refuses it too
          if (!Array.isArray(value) || value.length === 0) return false;
          return value.every(roleOf(args) === 'user' ? isContentPart : isTextPart);
        },
      },
    });
}

function roleOf(args: ValidationArguments | undefined): unknown {
  return (args?.object as { role?: unknown } | undefined)?.role;
}

function isTextPart(part: unknown): boolean {
  return isContentPart(part) && (part as { type: unknown }).type === 'text';
}

function isContentPart(part: unknown): boolean {
  if (typeof part !== 'object' || part === null) return false;
  const p = part as Record<string, any>;
  switch (p.type) {
    case 'text':
      return typeof p.text === 'string';
    case 'image_url':
      return typeof p.image_url?.url === 'string' && p.image_url.url.length > 0;
    case 'input_audio':
      return typeof p.input_audio?.data === 'string' && typeof p.input_audio?.format === 'string';
    case 'file':
      return typeof p.file === 'object' && p.file !== null;
    default:
      return false;
  }
}

/** `stop`: one string or up to four. */
function IsStop(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isStop',
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        message: '$property must be a string or an array of at most 4 strings',
        ...options,
      },
      validator: {
        validate: (value: unknown) =>
          typeof value === 'string' ||
          (Array.isArray(value) && value.length <= 4 && value.every((s) => typeof s === 'string')),
      },
    });
}

/**
 * `tool_choice`: `auto`, `required`, `none`, or `{ type: 'function', function: { name } }`
 * naming one of the request's tools (OpenAI refuses a name it was not offered, and so do we).
 */
function IsToolChoice(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isToolChoice',
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        message: (args) => {
          const name = namedToolOf(args.value);
          return name === undefined
            ? "$property must be one of auto, required, none or { type: 'function', function: { name } }"
            : `$property names the function '${name.slice(0, 64)}', which is not one of the tools`;
        },
        ...options,
      },
      validator: {
        validate: (value: unknown, args) => {
          if (value === 'auto' || value === 'required' || value === 'none') return true;
          const name = namedToolOf(value);
          if (name === undefined) return false;
          const tools = (args?.object as { tools?: unknown } | undefined)?.tools;
          return (
            Array.isArray(tools) &&
            tools.some((tool) => (tool as ToolDto | null)?.function?.name === name)
          );
        },
      },
    });
}

function namedToolOf(value: unknown): string | undefined {
  const choice = value as { type?: unknown; function?: { name?: unknown } } | null;
  if (typeof choice !== 'object' || choice === null || choice.type !== 'function') return undefined;
  const name = choice.function?.name;
  return typeof name === 'string' && name !== '' ? name : undefined;
}

class FunctionCallDto {
  @IsString() @IsNotEmpty() name!: string;
  @IsString() arguments!: string;
}

class ToolCallDto {
  @IsString() @IsNotEmpty() id!: string;
  @IsIn(['function']) type!: 'function';
  @IsObject() @ValidateNested() @Type(() => FunctionCallDto) function!: FunctionCallDto;
}

export class ChatCompletionMessageDto {
  @IsIn(['system', 'developer', 'user', 'assistant', 'tool'])
  role!: 'system' | 'developer' | 'user' | 'assistant' | 'tool';

  /** Optional only for an assistant message that carries tool calls. */
  @ValidateIf((m: ChatCompletionMessageDto) => m.role !== 'assistant' || m.content != null)
  @IsMessageContent()
  content?: unknown;

  @ValidateIf((m: ChatCompletionMessageDto) => m.role === 'assistant' && m.tool_calls != null)
  @IsArray()
  // class-validator passes a nested array (`[[]]`) as valid: each element must be an object
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => ToolCallDto)
  tool_calls?: ToolCallDto[];

  @ValidateIf((m: ChatCompletionMessageDto) => m.role === 'tool')
  @IsString()
  @IsNotEmpty()
  tool_call_id?: string;

  @IsOptional() @IsString() name?: string;
}

class FunctionDefinitionDto {
  @IsString() @IsNotEmpty() name!: string;
  @IsOptional() @IsString() description?: string;
  @IsOptional() @IsObject() parameters?: Record<string, unknown>;
}

class ToolDto {
  @IsIn(['function']) type!: 'function';
  @IsObject() @ValidateNested() @Type(() => FunctionDefinitionDto) function!: FunctionDefinitionDto;
}

class JsonSchemaDto {
  @IsString() @IsNotEmpty() name!: string;
  @IsOptional() @IsObject() schema?: Record<string, unknown>;
  @IsOptional() @IsBoolean() strict?: boolean;
}

class ResponseFormatDto {
  @IsIn(['text', 'json_object', 'json_schema']) type!: 'text' | 'json_object' | 'json_schema';

  @ValidateIf((f: ResponseFormatDto) => f.type === 'json_schema')
  @IsObject({ message: "$property is required when type is 'json_schema' ({ name, schema })" })
  @ValidateNested()
  @Type(() => JsonSchemaDto)
  json_schema?: JsonSchemaDto;
}

/**
 * Bounds the work one body can ask for: validation and mapping walk every message, and a body of
 * hundreds of thousands of tiny messages would hold the event loop for seconds.
 */
export const MAX_MESSAGES = 4096;

/** An OpenAI chat completions body; unknown extra fields are tolerated, as OpenAI's SDKs send some. */
export class ChatCompletionRequestDto {
  @IsString() @IsNotEmpty() model!: string;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_MESSAGES, { message: `messages must contain at most ${MAX_MESSAGES} messages` })
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => ChatCompletionMessageDto)
  messages!: ChatCompletionMessageDto[];

  @IsOptional() @IsBoolean() stream?: boolean;
  /** One choice per request: a silent single answer to `n: 3` would look like a complete one. */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1, { message: 'n must be 1: one choice per request is served; send n requests instead' })
  n?: number;
  @IsOptional() @IsObject() stream_options?: { include_usage?: boolean };
  @IsOptional() @IsNumber() @Min(0) @Max(2) temperature?: number;
  @IsOptional() @IsNumber() @Min(0) @Max(1) top_p?: number;
  @IsOptional() @IsInt() @Min(1) max_tokens?: number;
  @IsOptional() @IsInt() @Min(1) max_completion_tokens?: number;
  @IsOptional() @IsStop() stop?: string | string[];

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_MESSAGES)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => ToolDto)
  tools?: ToolDto[];

  @IsOptional()
  @IsToolChoice()
  tool_choice?: WireToolChoice;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => ResponseFormatDto)
  response_format?: ResponseFormatDto;

  /** Fallbacks after `model`; an empty list means none (as LiteLLM and OpenRouter read it). */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(10)
  @IsString({ each: true })
  models?: string[];

  @IsOptional() @IsString() user?: string;
}
