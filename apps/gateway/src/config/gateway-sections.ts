import 'reflect-metadata';
import { Transform, Type } from 'class-transformer';
import {
  ArrayNotEmpty,
  IsArray,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsOptional,
  IsPositive,
  IsString,
  Matches,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { BUDGET_PERIODS, type BudgetPeriod } from 'nest-model-router/core';

/** `${ENV}` yields strings: "60" is 60; anything else is left for the validators to name. */
const ToNumber = () =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))
      ? Number(value)
      : value,
  );

export class KeyBudgetConfig {
  @ToNumber()
  @IsNumber()
  @IsPositive()
  limitUsd!: number;

  /** The periods of the library's `budgets:`: a key's budget becomes one, scoped `{ key }`. */
  @IsIn(Object.keys(BUDGET_PERIODS))
  period!: BudgetPeriod;
}

/** A key's secret: the key itself (from `${ENV}`), or its SHA-256 so the file holds no secret. */
export class KeySecretConfig {
  @IsString()
  @IsNotEmpty()
  @Matches(/^[A-Za-z0-9_.-]+$/, { message: 'must be letters, digits, _ . - (it appears in logs)' })
  name!: string;

  @IsOptional()
  @IsString()
  // short keys can be guessed; 16 characters is the floor of OpenAI's and LiteLLM's formats
  @MinLength(16, { message: 'must be at least 16 characters long (e.g. `openssl rand -hex 24`)' })
  key?: string;

  @IsOptional()
  @IsString()
  @Matches(/^[0-9a-fA-F]{64}$/, { message: 'must be 64 hex digits (`sha256sum` of the key)' })
  sha256?: string;
}

/**
 * A client key. `routers`, `models` (configured models) and `providerModels`
 * (`provider/model-id`) are lists of names or globs (`*`); `routers`/`models` absent: all of
 * them; `providerModels` absent: none, `true`: every one its provider allows.
 */
export class ApiKeyConfig extends KeySecretConfig {
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  routers?: string[];

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  models?: string[];

  @IsOptional()
  providerModels?: boolean | string[];

  @IsOptional()
  @ToNumber()
  @IsInt()
  @Min(1)
  rpm?: number;

  @IsOptional()
  @ToNumber()
  @IsInt()
  @Min(1)
  tpm?: number;

  @IsOptional()
  @ValidateNested()
  @Type(() => KeyBudgetConfig)
  budget?: KeyBudgetConfig;
}

export class AuthConfig {
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => ApiKeyConfig)
  keys?: ApiKeyConfig[];

  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => KeySecretConfig)
  adminKeys?: KeySecretConfig[];
}

export class CorsConfig {
  @IsArray()
  @ArrayNotEmpty()
  @IsString({ each: true })
  @Matches(/^(\*|https?:\/\/[^/\s]+)$/, {
    each: true,
    message: "each origin must be '*' or scheme://host[:port], e.g. https://app.example.com",
  })
  origins!: string[];
}

export class ToolCallsConfig {
  /** Signs tool call ids; the same on every replica, so a tool round may land on any of them. */
  @IsOptional()
  @IsString()
  secret?: string;
}
