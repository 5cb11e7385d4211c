import { DEFAULT_FEATURE_WEIGHTS } from '../embedded/decision-features.js';
import type { EmbeddedVectorDecisionModelOptions } from '../embedded/embedded-vector-decision-model.js';
import { InvalidConfigurationException } from '../core/errors/exceptions.js';
import { pickSettings } from './model-router-factories.js';

type Shape = 'number' | 'string' | 'perKind' | { readonly [key: string]: 'number' | 'boolean' };

/**
 * The settings of an `embedded` decision model in YAML: every option of
 * EmbeddedVectorDecisionModel but `vectors` (in-memory only). Their shapes are checked here, with
 * the setting's path in each error; ranges ("must be positive") by the model's constructor.
 */
const EMBEDDED_SHAPES: Readonly<Record<string, Shape>> = {
  temperature: 'perKind',
  similarityWeight: 'perKind',
  lexicalWeight: 'perKind',
  descriptionWeight: 'number',
  topExamples: 'number',
  regularization: 'number',
  followUpWeight: 'number',
  instructionWeight: 'number',
  corpusWeight: 'number',
  catchAllCorpusWeight: 'number',
  corpusLexicalWeight: 'number',
  corpusMatch: 'number',
  corpusMargin: 'number',
  corpusHalfWeightExamples: 'number',
  intentMetric: 'number',
  maxCachedTexts: 'number',
  vectorsPath: 'string',
  corpusPath: 'string',
  // Every feature block's weight, as the model defines them (a new word class adds one).
  features: Object.fromEntries(Object.keys(DEFAULT_FEATURE_WEIGHTS).map((key) => [key, 'number'])),
  weighting: { frequencyDamping: 'number', stopWordWeight: 'number', centre: 'boolean' },
  messageWeights: { lastUser: 'number', earlierUser: 'number', assistant: 'number' },
};

const PER_KIND = { examples: 'number', descriptionsOnly: 'number' } as const;

/** The model's options from YAML settings, or an error listing every setting of the wrong shape. */
export function embeddedDecisionOptions(
  settings: Record<string, unknown>,
): EmbeddedVectorDecisionModelOptions {
  const options = pickSettings(
    settings,
    Object.keys(EMBEDDED_SHAPES),
    "an 'embedded' decision model",
  );
  const problems = Object.entries(options).flatMap(([key, value]) =>
    shapeProblems(key, value, EMBEDDED_SHAPES[key]!),
  );
  if (problems.length > 0) throw new InvalidConfigurationException(problems.join('; '));
  return options as EmbeddedVectorDecisionModelOptions;
}

function shapeProblems(path: string, value: unknown, shape: Shape): string[] {
  if (shape === 'number' || shape === 'string') {
    return typeof value === shape ? [] : [`${path} must be a ${shape}, got ${show(value)}`];
  }
  if (shape === 'perKind') {
    if (typeof value === 'number') return [];
    if (!isPlainObject(value)) {
      return [`${path} must be a number or { examples, descriptionsOnly }, got ${show(value)}`];
    }
    return objectProblems(path, value, PER_KIND);
  }
  if (!isPlainObject(value)) return [`${path} must be a mapping, got ${show(value)}`];
  return objectProblems(path, value, shape);
}

function objectProblems(
  path: string,
  value: Record<string, unknown>,
  fields: { readonly [key: string]: 'number' | 'boolean' },
): string[] {
  return Object.entries(value).flatMap(([key, field]) => {
    const type = fields[key];
    if (type === undefined) {
      return [`${path}.${key} is not a setting (known: ${Object.keys(fields).join(', ')})`];
    }
    return typeof field === type ? [] : [`${path}.${key} must be a ${type}, got ${show(field)}`];
  });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const show = (value: unknown) => (typeof value === 'string' ? `'${value}'` : JSON.stringify(value));
