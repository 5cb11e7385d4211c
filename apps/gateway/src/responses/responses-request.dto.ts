import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  Equals,
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
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { CheckField } from '../http/check-field.js';
import { inputProblem, toolChoiceProblem, toolsProblem } from './responses-input-checks.js';

const STATELESS = 'this gateway stores no responses; send the whole conversation in input';

class TextFormatDto {
  @IsIn(['text', 'json_object', 'json_schema']) type!: string;

  @ValidateIf((f: TextFormatDto) => f.type === 'json_schema')
  @IsString()
  @IsNotEmpty()
  name?: string;

  @ValidateIf((f: TextFormatDto) => f.type === 'json_schema')
  @IsObject({ message: "$property is required when type is 'json_schema'" })
  schema?: Record<string, unknown>;
}

class TextDto {
  @IsOptional() @ValidateNested() @Type(() => TextFormatDto) format?: TextFormatDto;
}

/**
 * An OpenAI Responses body. Unknown extra fields are tolerated (the SDKs send some, e.g.
 * `include`, `reasoning`); those that would need stored state are refused by name.
 */
export class ResponsesRequestDto {
  @IsString() @IsNotEmpty() @MaxLength(256) model!: string;
  @CheckField(inputProblem) input!: unknown;
  @IsOptional() @IsString() instructions?: string | null;
  @IsOptional() @CheckField(toolsProblem) tools?: unknown;
  @IsOptional()
  @CheckField((value, body) => toolChoiceProblem(value, body.tools))
  tool_choice?: unknown;
  @IsOptional() @ValidateNested() @Type(() => TextDto) text?: TextDto;
  @IsOptional() @IsNumber() @Min(0) @Max(2) temperature?: number | null;
  @IsOptional() @IsNumber() @Min(0) @Max(1) top_p?: number | null;
  @IsOptional() @IsInt() @Min(1) max_output_tokens?: number | null;
  @IsOptional() @IsBoolean() stream?: boolean | null;
  @IsOptional() @IsBoolean() store?: boolean | null;
  @IsOptional() @IsBoolean() parallel_tool_calls?: boolean | null;
  @IsOptional() @IsString() user?: string;

  @IsOptional()
  @CheckField((value) =>
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.keys(value).length <= 16 &&
    Object.values(value).every((entry) => typeof entry === 'string' && entry.length <= 512)
      ? undefined
      : ' must be an object of at most 16 string values of at most 512 characters',
  )
  metadata?: Record<string, string> | null;

  @IsOptional()
  @Equals(null, { message: `previous_response_id: ${STATELESS}` })
  previous_response_id?: null;

  @IsOptional()
  @Equals(null, { message: `conversation: ${STATELESS}` })
  conversation?: null;

  @IsOptional()
  @Equals(false, { message: 'background: responses run in the request here; omit background' })
  background?: false;

  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(10)
  @IsString({ each: true })
  models?: string[];
}
