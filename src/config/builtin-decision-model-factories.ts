import { ChatModelDecisionModel } from '../core/decision/models/chat-model-decision-model.js';
import { EmbeddedVectorDecisionModel } from '../embedded/embedded-vector-decision-model.js';
import { EmbeddingDecisionModel } from '../providers/embeddings/embedding-decision-model.js';
import { InvalidConfigurationException } from '../core/errors/exceptions.js';
import { embeddedDecisionOptions } from './embedded-decision-settings.js';
import { type ModelRouterFactories, pickSettings } from './model-router-factories.js';

const LLM_SETTINGS = [
  'model',
  'maxExamplesPerOption',
  'maxOutputTokens',
  'temperature',
  'parameters',
];
const EMBEDDING_SETTINGS = [
  'baseURL',
  'apiKey',
  'model',
  'dimensions',
  'headers',
  'timeoutMs',
  'temperature',
  'descriptionWeight',
  'topExamples',
  'messageWeights',
  'maxCachedTexts',
];

/**
 * `embedded`: the offline word-vector model (no settings needed, every option of
 * EmbeddedVectorDecisionModel but `vectors` accepted; one instance per distinct settings, since
 * the vectors take a few MB); `llm`: an LLM judge over a configured model
 * (`model: <name>`); `embedding`: an OpenAI-compatible embeddings endpoint.
 */
export function registerBuiltinDecisionModelTypes(
  factories: ModelRouterFactories,
): ModelRouterFactories {
  const embedded = new Map<string, EmbeddedVectorDecisionModel>();
  return factories
    .registerDecisionModelType('embedded', (settings) => {
      const options = embeddedDecisionOptions(settings);
      const key = JSON.stringify(options);
      let model = embedded.get(key);
      if (!model) {
        model = new EmbeddedVectorDecisionModel(options);
        embedded.set(key, model);
      }
      return model;
    })
    .registerDecisionModelType('llm', (settings, context) => {
      const { model, ...options } = pickSettings(settings, LLM_SETTINGS, "an 'llm' decision model");
      if (typeof model !== 'string' || model.trim() === '') {
        throw new InvalidConfigurationException(
          "model: an 'llm' decision model needs the name of a configured model to ask (model: <name>)",
        );
      }
      return new ChatModelDecisionModel(context.model(model), options);
    })
    .registerDecisionModelType('embedding', (settings) => {
      const options = pickSettings(settings, EMBEDDING_SETTINGS, "an 'embedding' decision model");
      return new EmbeddingDecisionModel(options as never);
    });
}
