// nest-model-router/ai-sdk: AI SDK language models as ChatModels, and ChatModels as AI SDK
// language models. Only types of @ai-sdk/provider are imported: nothing here needs `ai` to run.
export { AiSdkChatModel, type AiSdkChatModelOptions } from './ai-sdk-chat-model.js';
export type { AiSdkLanguageModel, AiSdkLanguageModelV3 } from './language-model-shapes.js';
export {
  toAiSdkLanguageModel,
  type ToAiSdkLanguageModelOptions,
} from './to-ai-sdk-language-model.js';
