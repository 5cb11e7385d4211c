// nest-model-router/ai-sdk: AI SDK language models as ChatModels, and ChatModels as AI SDK
// language models. Only types of @ai-sdk/provider are imported: nothing here needs `ai` to run.
export {
  AiSdkChatModel,
  type AiSdkChatModelOptions,
  type AiSdkLanguageModel,
} from './ai-sdk-chat-model.js';
export {
  toAiSdkLanguageModel,
  type ToAiSdkLanguageModelOptions,
} from './to-ai-sdk-language-model.js';
