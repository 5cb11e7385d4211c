import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  registerDecorator,
  type ValidationOptions,
} from 'class-validator';

/** OpenAI's own limits: 2048 inputs per request; a text far beyond any model's context is refused. */
export const MAX_EMBEDDING_INPUTS = 2048;
export const MAX_EMBEDDING_INPUT_CHARS = 100_000;

/** `input`: a text or a non-empty list of texts, bounded; token-id arrays are refused by name. */
function IsEmbeddingInput(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isEmbeddingInput',
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        message: (args) =>
          Array.isArray(args.value) && args.value.some((item) => typeof item !== 'string')
            ? '$property must hold texts: token-id arrays are not supported by this gateway'
            : `$property must be a string or 1 to ${MAX_EMBEDDING_INPUTS} strings of at most ` +
              `${MAX_EMBEDDING_INPUT_CHARS} characters each`,
        ...options,
      },
      validator: {
        validate: (value: unknown) => {
          const texts = typeof value === 'string' ? [value] : value;
          return (
            Array.isArray(texts) &&
            texts.length > 0 &&
            texts.length <= MAX_EMBEDDING_INPUTS &&
            texts.every(
              (text) => typeof text === 'string' && text.length <= MAX_EMBEDDING_INPUT_CHARS,
            )
          );
        },
      },
    });
}

/** An OpenAI embeddings body; unknown extra fields are tolerated, as on chat completions. */
export class EmbeddingsRequestDto {
  @IsString() @IsNotEmpty() @MaxLength(256) model!: string;
  @IsEmbeddingInput() input!: string | string[];
  @IsOptional() @IsIn(['float', 'base64']) encoding_format?: 'float' | 'base64';
  @IsOptional() @IsInt() @Min(1) @Max(65_536) dimensions?: number;
  @IsOptional() @IsString() user?: string;

  /** A per-request failover list, as on chat completions. */
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(10)
  @IsString({ each: true })
  models?: string[];
}
