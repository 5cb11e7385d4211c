import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { CheckField } from '../http/check-field.js';
import {
  messagesProblem,
  systemProblem,
  toolChoiceProblem,
  toolsProblem,
} from './messages-checks.js';

/** An Anthropic Messages body; unknown extra fields (metadata, top_k, thinking…) are tolerated. */
export class MessagesRequestDto {
  @IsString() @IsNotEmpty() @MaxLength(256) model!: string;
  @IsInt() @Min(1) max_tokens!: number;
  @CheckField(messagesProblem) messages!: unknown;
  @IsOptional() @CheckField(systemProblem) system?: unknown;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(16)
  @IsString({ each: true })
  stop_sequences?: string[];

  @IsOptional() @IsNumber() @Min(0) @Max(1) temperature?: number;
  @IsOptional() @IsNumber() @Min(0) @Max(1) top_p?: number;
  @IsOptional() @IsBoolean() stream?: boolean;
  @IsOptional() @CheckField(toolsProblem) tools?: unknown;
  @IsOptional()
  @CheckField((value, body) => toolChoiceProblem(value, body.tools))
  tool_choice?: unknown;

  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(10)
  @IsString({ each: true })
  models?: string[];
}
