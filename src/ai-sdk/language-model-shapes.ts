/**
 * The AI SDK's language models as this package's typings name them: by shape, so that the root
 * entry type-checks without `@ai-sdk/provider` installed (an optional peer), as the Redis store's
 * typings do without ioredis. The adapters themselves are written against the real types.
 */

/** Any AI SDK language model, specification v2 or v3 (`LanguageModelV2 | LanguageModelV3`). */
export interface AiSdkLanguageModel {
  readonly specificationVersion: 'v2' | 'v3';
  readonly provider: string;
  readonly modelId: string;
  doGenerate(options: never): PromiseLike<unknown>;
  doStream(options: never): PromiseLike<{ stream: ReadableStream<unknown> }>;
}

/**
 * A `LanguageModelV3` as `generateText`, `streamText` and `wrapLanguageModel` of `ai@6` take it.
 * Its calls are loosely typed here; assign it to `LanguageModelV3` (from `@ai-sdk/provider`) to
 * call `doGenerate` / `doStream` yourself with their full types.
 */
export interface AiSdkLanguageModelV3 {
  readonly specificationVersion: 'v3';
  readonly provider: string;
  readonly modelId: string;
  readonly supportedUrls: PromiseLike<Record<string, RegExp[]>> | Record<string, RegExp[]>;
  // oxlint-disable-next-line no-explicit-any -- the precise types live in the optional peer
  doGenerate(options: any): PromiseLike<any>;
  // oxlint-disable-next-line no-explicit-any -- the precise types live in the optional peer
  doStream(options: any): PromiseLike<any>;
}
