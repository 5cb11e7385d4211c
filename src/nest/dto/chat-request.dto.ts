import 'reflect-metadata';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  Equals,
  IsArray,
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
} from 'class-validator';
import type { ChatMessage, ContentPart, ToolCall } from '../../core/chat/messages.js';
import type {
  ChatRequest,
  ChatRequestParameters,
  ReasoningEffort,
  ToolChoice,
} from '../../core/chat/request.js';
import { IsBoundedParameter } from './bounded-parameter.validator.js';
import { IsChatContent } from './chat-content.validator.js';
import { DEFAULT_MAX_ARRAY_LENGTH } from './json-body-bounds.js';
import { IsMessageList } from './message-list.validator.js';
import { IsToolChoice } from './tool-choice.validator.js';

/** At most this many messages, tools or tool calls: each one is validated and mapped. */
export const MAX_CHAT_ARRAY_LENGTH = DEFAULT_MAX_ARRAY_LENGTH;

const ROLES = ['system', 'user', 'assistant', 'tool'] as const;

export class ToolCallDto {
  @IsString()
  @IsNotEmpty()
  id!: string;

  @IsString()
  @IsNotEmpty()
  name!: string;

  /** The tool's arguments as a JSON string. */
  @IsString()
  arguments!: string;
}

/** One message; which fields apply depends on `role` (as in the ChatMessage union). */
export class ChatMessageDto {
  @IsIn(ROLES)
  role!: (typeof ROLES)[number];

  /** system, tool: required; assistant: optional. */
  @ValidateIf(
    (message: ChatMessageDto) => isRole(message, 'system', 'tool') || message.text !== undefined,
  )
  @IsString()
  text?: string;

  /** user: a string or content parts. */
  @ValidateIf((message: ChatMessageDto) => isRole(message, 'user'))
  @IsChatContent()
  content?: string | ContentPart[];

  @ValidateIf((message: ChatMessageDto) => isRole(message, 'user') && message.name !== undefined)
  @IsString()
  name?: string;

  @ValidateIf(
    (message: ChatMessageDto) => isRole(message, 'assistant') && message.toolCalls !== undefined,
  )
  @IsArray()
  @ArrayMaxSize(MAX_CHAT_ARRAY_LENGTH)
  // class-validator passes a nested array as valid: each element must be an object
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => ToolCallDto)
  toolCalls?: ToolCallDto[];

  /** assistant: the attributes of an earlier answer (its route, for tool loops). */
  @ValidateIf(
    (message: ChatMessageDto) => isRole(message, 'assistant') && message.attributes !== undefined,
  )
  @IsObject()
  attributes?: Record<string, unknown>;

  @ValidateIf((message: ChatMessageDto) => isRole(message, 'tool'))
  @IsString()
  @IsNotEmpty()
  toolCallId?: string;

  @ValidateIf(
    (message: ChatMessageDto) => isRole(message, 'tool') && message.toolName !== undefined,
  )
  @IsString()
  toolName?: string;
}

export class ToolSpecificationDto {
  @IsString()
  @IsNotEmpty()
  name!: string;

  @IsOptional()
  @IsString()
  description?: string;

  /** JSON schema of the arguments. */
  @IsOptional()
  @IsObject()
  parameters?: Record<string, unknown>;
}

export class JsonSchemaDto {
  @IsString()
  @IsNotEmpty()
  name!: string;

  @IsObject()
  schema!: Record<string, unknown>;
}

export class ResponseFormatDto {
  @IsIn(['text', 'json'])
  type!: 'text' | 'json';

  @ValidateIf(
    (format: ResponseFormatDto) => format.type === 'json' && format.jsonSchema !== undefined,
  )
  @IsObject()
  @ValidateNested()
  @Type(() => JsonSchemaDto)
  jsonSchema?: JsonSchemaDto;
}

export class ChatRequestParametersDto {
  /**
   * Refused: the provider model id is configuration. A caller that chose it could turn its own
   * typo into the provider's 404 and put every model of a router into cooldown.
   */
  @IsOptional()
  @Equals(undefined, {
    message:
      'parameters.modelName: a request cannot choose the provider model id; name a router ' +
      '(`router`) and let it choose, or remove modelName',
  })
  modelName?: string;

  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(2)
  temperature?: number;

  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(1)
  topP?: number;

  @IsOptional()
  @IsInt()
  @Min(1)
  maxOutputTokens?: number;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(16)
  @IsString({ each: true })
  stopSequences?: string[];

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_CHAT_ARRAY_LENGTH)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => ToolSpecificationDto)
  tools?: ToolSpecificationDto[];

  @IsOptional()
  @IsToolChoice()
  toolChoice?: ToolChoice;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => ResponseFormatDto)
  responseFormat?: ResponseFormatDto;

  @IsOptional() @IsBoundedParameter() seed?: number;
  @IsOptional() @IsBoundedParameter() frequencyPenalty?: number;
  @IsOptional() @IsBoundedParameter() presencePenalty?: number;
  @IsOptional() @IsBoundedParameter() logitBias?: Record<string, number>;
  @IsOptional() @IsBoundedParameter() logprobs?: boolean;
  @IsOptional() @IsBoundedParameter() topLogprobs?: number;
  @IsOptional() @IsBoundedParameter() topK?: number;
  @IsOptional() @IsBoundedParameter() user?: string;
  @IsOptional() @IsBoundedParameter() parallelToolCalls?: boolean;
  @IsOptional() @IsBoundedParameter() reasoningEffort?: ReasoningEffort;
  @IsOptional() @IsBoundedParameter() serviceTier?: string;
}

/**
 * An HTTP chat body, validated with class-validator: use it with
 * `new ValidationPipe({ transform: true })` and invalid bodies get a 400 naming each field
 * (`messages.1.role must be one of the following values: …`).
 */
export class ChatRequestDto {
  @IsMessageList(MAX_CHAT_ARRAY_LENGTH)
  @ValidateNested({ each: true })
  @Type(() => ChatMessageDto)
  messages!: ChatMessageDto[];

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => ChatRequestParametersDto)
  parameters?: ChatRequestParametersDto;

  /** The router to use; default: the handler's `@UseRouter` or the module's default. */
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  router?: string;

  /** The validated body as a ChatRequest: only the fields each role defines. */
  toChatRequest(): ChatRequest {
    return ChatRequestDto.toChatRequest(this);
  }

  /** Works on a transformed DTO or on the plain validated body. */
  static toChatRequest(dto: Pick<ChatRequestDto, 'messages' | 'parameters'>): ChatRequest {
    const request: ChatRequest = { messages: dto.messages.map(toMessage) };
    // @IsOptional() lets null through: null means absent, here and in each parameter
    if (dto.parameters != null) request.parameters = toParameters(dto.parameters);
    return request;
  }
}

function isRole(message: ChatMessageDto, ...roles: ChatMessageDto['role'][]): boolean {
  return roles.includes(message.role);
}

function toMessage(message: ChatMessageDto): ChatMessage {
  switch (message.role) {
    case 'system':
      return { role: 'system', text: message.text ?? '' };
    case 'user':
      return {
        role: 'user',
        content: copyContent(message.content ?? ''),
        ...(message.name !== undefined ? { name: message.name } : {}),
      };
    case 'assistant':
      return {
        role: 'assistant',
        ...(message.text !== undefined ? { text: message.text } : {}),
        ...(message.toolCalls !== undefined
          ? {
              toolCalls: message.toolCalls.map((call): ToolCall => ({
                id: call.id,
                name: call.name,
                arguments: call.arguments,
              })),
            }
          : {}),
        ...(message.attributes !== undefined ? { attributes: { ...message.attributes } } : {}),
      };
    case 'tool':
      return {
        role: 'tool',
        toolCallId: message.toolCallId ?? '',
        ...(message.toolName !== undefined ? { toolName: message.toolName } : {}),
        text: message.text ?? '',
      };
  }
}

function copyContent(content: string | ContentPart[]): string | ContentPart[] {
  if (typeof content === 'string') return content;
  return content.map((part) => ({ ...part }) as ContentPart);
}

function toParameters(dto: ChatRequestParametersDto): ChatRequestParameters {
  const parameters: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(dto)) {
    if (value != null) parameters[key] = structuredClone(value);
  }
  return parameters as ChatRequestParameters;
}
