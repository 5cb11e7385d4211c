import { learnedText } from '../core/decision/decision-feedback.js';
import type { ChoiceOption, LearnRequest } from '../core/decision/decision-model.js';
import { InvalidConfigurationException } from '../core/errors/exceptions.js';
import {
  checkNonNegative,
  checkPositive,
  checkPositiveInteger,
} from '../core/decision/models/option-validation.js';
import { type EvidenceWeights, LearnedEvidence, type LearnedPoint } from './learned-evidence.js';

export const DEFAULT_MAX_LEARNED_PER_OPTION = 50;
/** Examples one caller scope keeps per option (its untrusted feedback, for itself only). */
export const DEFAULT_MAX_LEARNED_PER_SCOPE = 10;
/** Caller scopes with learned examples kept at once; the least recently used goes first. */
export const DEFAULT_MAX_LEARNED_SCOPES = 256;

/** Most questions whose learned examples are kept (each router's routes make one question). */
const MAX_QUESTIONS = 256;
/** Most questions per caller scope (a deployment's routers rarely ask more than a few). */
const MAX_SCOPE_QUESTIONS = 4;

/** An input as learning reads it; `empty` when it has no known word. */
export interface LearnedReading extends LearnedPoint {
  readonly empty: boolean;
}

interface LearnedExampleSet {
  texts: string[];
  points: LearnedPoint[];
}

/** A question's learned examples, per option, and their evidence compiled for decisions. */
interface QuestionLearning {
  byOption: Map<string, LearnedExampleSet>;
  /** Bumped on each change, so compiled evidence knows when it is stale. */
  version: number;
  compiled?: {
    evidence: LearnedEvidence;
    version: number;
    shared?: QuestionLearning;
    sharedVersion: number;
  };
}

/** Chosen on garden-centre and the development eval sets (bench/decision/learning-tuning.ts). */
export const LEARNED_SCORING: Readonly<EvidenceWeights> = {
  centroid: 8,
  words: 8,
  halfAt: 5,
  blendPenalty: 3,
  biasPenalty: 1,
};

export type LearnedScoring = EvidenceWeights;

export interface LearnedOptionsConfig {
  /** Examples `learn` keeps per option (the oldest go first; default 50). */
  maxLearnedPerOption?: number;
  /** Examples one caller scope keeps per option, for its own decisions (default 10). */
  maxLearnedPerScope?: number;
  /** Caller scopes with examples of their own (the least recently used goes first; default 256). */
  maxLearnedScopes?: number;
  /** How learned examples score (learned-evidence.ts). */
  learnedScoring?: Partial<LearnedScoring>;
}

/**
 * The examples an embedded decision model learned from traffic (feedback, a teacher), per
 * question and option. They are the deployment's own messages: instead of refitting the
 * classifier on them (tens of ms per learned message), each option gains evidence from how close
 * the input is to its learned examples (topic vectors and exact words, learned-evidence.ts), added
 * to the zero-shot model's log-probabilities. Bounded per option: the oldest go first.
 */
export class LearnedOptions {
  /** The shared examples (trusted feedback, a teacher, start-up files): every decision's. */
  private readonly questions = new Map<string, QuestionLearning>();
  /** Per caller scope, its own examples, least recently used first. */
  private readonly scopes = new Map<string, Map<string, QuestionLearning>>();
  /** Options' descriptions as points (for options without learned examples). */
  private readonly descriptions = new Map<string, LearnedPoint>();

  readonly maxPerOption: number;
  readonly maxPerScope: number;
  readonly maxScopes: number;
  readonly scoring: EvidenceWeights;

  constructor(
    /** Reads an input; with a question's options, its zero-shot answer too (`prior`). */
    private readonly read: (
      input: LearnRequest['input'],
      options?: readonly ChoiceOption[],
    ) => LearnedReading,
    options: LearnedOptionsConfig = {},
  ) {
    checkPositiveInteger(options.maxLearnedPerOption, 'maxLearnedPerOption');
    checkPositiveInteger(options.maxLearnedPerScope, 'maxLearnedPerScope');
    checkPositiveInteger(options.maxLearnedScopes, 'maxLearnedScopes');
    this.maxPerOption = options.maxLearnedPerOption ?? DEFAULT_MAX_LEARNED_PER_OPTION;
    this.maxPerScope = options.maxLearnedPerScope ?? DEFAULT_MAX_LEARNED_PER_SCOPE;
    this.maxScopes = options.maxLearnedScopes ?? DEFAULT_MAX_LEARNED_SCOPES;
    const scoring = options.learnedScoring;
    checkNonNegative(scoring?.centroid, 'learnedScoring.centroid');
    checkNonNegative(scoring?.words, 'learnedScoring.words');
    checkNonNegative(scoring?.halfAt, 'learnedScoring.halfAt');
    for (const key of ['blendPenalty', 'biasPenalty'] as const) {
      // Infinity turns the fit (or the biases) off
      if (scoring?.[key] !== Infinity) checkPositive(scoring?.[key], `learnedScoring.${key}`);
    }
    this.scoring = { ...LEARNED_SCORING, ...scoring };
  }

  /**
   * Keeps an example of an option: shared without `request.scope`, else for that scope's own
   * decisions only (a client key's feedback never moves another key's routing). A conversation
   * is read as a decision reads it: all its turns, a last message that names no topic adding none.
   */
  learn(request: LearnRequest): void {
    const options = request?.question?.options;
    if (!Array.isArray(options) || !options.some((option) => option.name === request.route)) {
      throw new InvalidConfigurationException(
        `learn: route '${String(request?.route)}' is not an option of the question`,
      );
    }
    const text = learnedText(request.input).trim();
    if (text === '') return;
    const reading = this.read(request.input, options);
    if (reading.empty) return;
    const scope = typeof request.scope === 'string' ? request.scope : undefined;
    const questions = scope === undefined ? this.questions : this.scopeQuestions(scope, true)!;
    const key = fingerprint(options);
    let question = questions.get(key);
    if (!question) {
      if (questions.size >= (scope === undefined ? MAX_QUESTIONS : MAX_SCOPE_QUESTIONS)) {
        questions.delete(questions.keys().next().value as string);
      }
      question = { byOption: new Map(), version: 0 };
      questions.set(key, question);
    }
    const set = question.byOption.get(request.route) ?? { texts: [], points: [] };
    if (set.texts.includes(text)) return;
    set.texts.push(text);
    set.points.push({ text, topic: reading.topic, terms: reading.terms, prior: reading.prior });
    const max = scope === undefined ? this.maxPerOption : this.maxPerScope;
    while (set.texts.length > max) {
      set.texts.shift();
      set.points.shift();
    }
    question.byOption.set(request.route, set);
    question.version++;
  }

  /** A scope's questions, marked as just used; created (evicting the least used) when asked. */
  private scopeQuestions(
    scope: string,
    create: boolean,
  ): Map<string, QuestionLearning> | undefined {
    let questions = this.scopes.get(scope);
    if (questions) {
      this.scopes.delete(scope);
    } else {
      if (!create) return undefined;
      if (this.scopes.size >= this.maxScopes) {
        this.scopes.delete(this.scopes.keys().next().value as string);
      }
      questions = new Map();
    }
    this.scopes.set(scope, questions);
    return questions;
  }

  /**
   * The learned examples' evidence for a question, as the decisions of `scope` see it (the shared
   * examples and the scope's own), compiled once per change; undefined when there are none.
   */
  evidence(options: readonly ChoiceOption[], scope?: string): LearnedEvidence | undefined {
    if (this.questions.size === 0 && (scope === undefined || this.scopes.size === 0)) {
      return undefined;
    }
    const key = fingerprint(options);
    const shared = this.questions.get(key);
    const scoped =
      typeof scope === 'string' ? this.scopeQuestions(scope, false)?.get(key) : undefined;
    const owner = scoped ?? shared;
    if (!owner) return undefined;
    const base = scoped ? shared : undefined;
    const cached = owner.compiled;
    if (
      cached?.version === owner.version &&
      cached.shared === base &&
      cached.sharedVersion === (base?.version ?? 0)
    ) {
      return cached.evidence;
    }
    let learned = 0;
    const sets = options.map((option) => {
      const points = [
        ...(base?.byOption.get(option.name)?.points ?? []),
        ...(owner.byOption.get(option.name)?.points ?? []),
      ];
      learned += points.length;
      // an option without examples scores on its description as if it were one, so that having
      // examples is no advantage by itself
      return points.length > 0 ? points : [this.described(option)];
    });
    const evidence = new LearnedEvidence(sets, learned, this.scoring);
    owner.compiled = {
      evidence,
      version: owner.version,
      shared: base,
      sharedVersion: base?.version ?? 0,
    };
    return evidence;
  }

  /** An option's description as its one example. */
  private described(option: ChoiceOption): LearnedPoint {
    const text = `${option.name} ${option.description}`;
    let point = this.descriptions.get(text);
    if (!point) {
      if (this.descriptions.size >= MAX_QUESTIONS * 8) this.descriptions.clear();
      const { topic, terms } = this.read(text);
      point = { topic, terms };
      this.descriptions.set(text, point);
    }
    return point;
  }

  /** Learned examples per option of a question: the shared ones, or one scope's own. */
  counts(options: readonly ChoiceOption[], scope?: string): Record<string, number> {
    const questions = scope === undefined ? this.questions : this.scopes.get(scope);
    const byOption = questions?.get(fingerprint(options))?.byOption;
    return Object.fromEntries(
      options.map((option) => [option.name, byOption?.get(option.name)?.texts.length ?? 0]),
    );
  }

  /** How many caller scopes have examples of their own. */
  get scopeCount(): number {
    return this.scopes.size;
  }
}

/** A question's identity: its options' names, descriptions and own examples. */
function fingerprint(options: readonly ChoiceOption[]): string {
  // the router hands every decision the same options array: its key is built once (about a
  // third of what learned examples add to a decision), and kept while each option's name,
  // description and examples are the same strings and array as then, with the same contents
  const cached = fingerprints.get(options);
  if (cached && sameParts(cached.parts, options)) return cached.key;
  let key = '';
  const parts: unknown[] = [];
  for (const option of options) {
    key += `${option.name}\u0000${option.description}\u0000${joined(option.examples)}\u0001`;
    parts.push(option.name, option.description, option.examples, contentsOf(option.examples));
  }
  fingerprints.set(options, { key, parts });
  return key;
}

const fingerprints = new WeakMap<
  readonly ChoiceOption[],
  { key: string; parts: readonly unknown[] }
>();

/** Parts kept per option: name, description, examples array, and its contents when mutable. */
const PARTS = 4;

function sameParts(parts: readonly unknown[], options: readonly ChoiceOption[]): boolean {
  if (parts.length !== PARTS * options.length) return false;
  let i = 0;
  for (const option of options) {
    if (parts[i++] !== option.name || parts[i++] !== option.description) return false;
    if (parts[i++] !== option.examples) return false;
    const contents = parts[i++] as readonly string[] | undefined;
    if (contents !== undefined && !sameStrings(contents, option.examples!)) return false;
  }
  return true;
}

/**
 * What an examples array held, to notice it was changed in place; undefined for a frozen one
 * (the router's: route-validation freezes each route's examples), which cannot change, so a
 * router's decision compares nothing more than the array.
 */
function contentsOf(examples: readonly string[] | undefined): readonly string[] | undefined {
  return examples === undefined || Object.isFrozen(examples) ? undefined : [...examples];
}

function sameStrings(kept: readonly string[], examples: readonly string[]): boolean {
  if (kept.length !== examples.length) return false;
  for (let i = 0; i < kept.length; i += 1) if (kept[i] !== examples[i]) return false;
  return true;
}

/**
 * A route's examples as one string, kept per frozen array: the router hands every decision the
 * same examples array of a route, so a decision does not join them again. An array that may
 * change is joined each time it is asked (only when its question's key is built again).
 */
const joins = new WeakMap<readonly string[], string>();
function joined(examples: readonly string[] | undefined): string {
  if (examples === undefined) return '';
  if (!Object.isFrozen(examples)) return examples.join('\u0002');
  let text = joins.get(examples);
  if (text === undefined) {
    text = examples.join('\u0002');
    joins.set(examples, text);
  }
  return text;
}
