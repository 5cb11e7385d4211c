/**
 * How EmbeddedVectorDecisionModel's defaults are chosen: coordinate search over a grid, scored by
 * the mean accuracy over the evaluation sets (each set counts the same) on dev items only, then
 * the temperature that minimizes the log-loss there. `crossValidate` runs that whole choice on 4
 * of 5 folds of the dev items and scores the fold left out, which estimates how well choosing
 * this way generalizes; the held-out split is never read here.
 */
import {
  EmbeddedVectorDecisionModel,
  EMBEDDED_VECTOR_DEFAULTS,
  type EmbeddedVectorDecisionModelOptions,
} from '../../../src/embedded/embedded-vector-decision-model.js';
import { DEFAULT_FEATURE_WEIGHTS } from '../../../src/embedded/decision-features.js';
import { calibration, decideCase, FOLDS, type Case, type Outcome } from './decision-eval.js';

export interface Parameter {
  name: string;
  values: readonly number[];
  apply: (
    options: EmbeddedVectorDecisionModelOptions,
    value: number,
  ) => EmbeddedVectorDecisionModelOptions;
}

const D = EMBEDDED_VECTOR_DEFAULTS;
const F = DEFAULT_FEATURE_WEIGHTS;
export const PARAMETERS: readonly Parameter[] = [
  {
    name: 'similarityWeight.examples',
    values: [0, 1, 2, 4, 8],
    apply: (o, v) => ({
      ...o,
      similarityWeight: { ...(o.similarityWeight as object), examples: v },
    }),
  },
  {
    name: 'similarityWeight.descriptionsOnly',
    values: [0, 4, 8, 16, 32, 64, 128],
    apply: (o, v) => ({
      ...o,
      similarityWeight: { ...(o.similarityWeight as object), descriptionsOnly: v },
    }),
  },
  {
    name: 'lexicalWeight.examples',
    values: [0, 1, 2, 4, 8],
    apply: (o, v) => ({ ...o, lexicalWeight: { ...(o.lexicalWeight as object), examples: v } }),
  },
  {
    name: 'lexicalWeight.descriptionsOnly',
    values: [0, 8, 16, 32, 64],
    apply: (o, v) => ({
      ...o,
      lexicalWeight: { ...(o.lexicalWeight as object), descriptionsOnly: v },
    }),
  },
  {
    name: 'regularization',
    values: [0.001, 0.003, 0.01, 0.03],
    apply: (o, v) => ({ ...o, regularization: v }),
  },
  {
    name: 'descriptionWeight',
    values: [0.3, 0.5, 0.7],
    apply: (o, v) => ({ ...o, descriptionWeight: v }),
  },
  {
    name: 'features.style',
    values: [0, 0.5, 1, 2],
    apply: (o, v) => ({ ...o, features: { ...o.features, style: v } }),
  },
  {
    name: 'features.surface',
    values: [0, 1, 2, 3],
    apply: (o, v) => ({ ...o, features: { ...o.features, surface: v } }),
  },
  {
    name: 'features.complexity',
    values: [0, 0.5, 1, 2, 3],
    apply: (o, v) => ({ ...o, features: { ...o.features, complexity: v } }),
  },
  {
    name: 'features.opinion',
    values: [0, 0.5, 1, 2],
    apply: (o, v) => ({ ...o, features: { ...o.features, opinion: v } }),
  },
  {
    name: 'features.language',
    values: [0, 0.5, 1, 2],
    apply: (o, v) => ({ ...o, features: { ...o.features, language: v } }),
  },
  { name: 'followUpWeight', values: [0, 1, 3, 6], apply: (o, v) => ({ ...o, followUpWeight: v }) },
  {
    name: 'instructionWeight',
    values: [0, 2, 4, 8, 16],
    apply: (o, v) => ({ ...o, instructionWeight: v }),
  },
  { name: 'corpusWeight', values: [0, 0.5, 1, 2, 4], apply: (o, v) => ({ ...o, corpusWeight: v }) },
  {
    name: 'catchAllCorpusWeight',
    values: [0, 0.3, 1],
    apply: (o, v) => ({ ...o, catchAllCorpusWeight: v }),
  },
  {
    name: 'corpusLexicalWeight',
    values: [0, 0.25, 0.5, 1],
    apply: (o, v) => ({ ...o, corpusLexicalWeight: v }),
  },
  {
    name: 'corpusMatch',
    values: [0.65, 0.7, 0.75, 0.8],
    apply: (o, v) => ({ ...o, corpusMatch: v }),
  },
  {
    name: 'corpusMargin',
    values: [0, 0.05, 0.1],
    apply: (o, v) => ({ ...o, corpusMargin: v }),
  },
  {
    name: 'corpusHalfWeightExamples',
    values: [2, 5, 1000],
    apply: (o, v) => ({ ...o, corpusHalfWeightExamples: v }),
  },
  { name: 'intentMetric', values: [0, 0.5, 1], apply: (o, v) => ({ ...o, intentMetric: v }) },
  {
    name: 'messageWeights.earlier',
    // At most half the last user message: a last message with a topic of its own must outweigh
    // an earlier one (0.7 gained 0.1 point of dev accuracy and let "translate this into French"
    // outweigh a last message asking for a Python function; a unit test checks it).
    values: [0.35, 0.5],
    apply: (o, v) => ({ ...o, messageWeights: { lastUser: 1, earlierUser: v, assistant: v / 2 } }),
  },
];

/** The shipped defaults as a point of the grid. */
export function shippedPoint(): number[] {
  const current: Record<string, number> = {
    'similarityWeight.examples': D.similarityWeight.examples,
    'similarityWeight.descriptionsOnly': D.similarityWeight.descriptionsOnly,
    'lexicalWeight.examples': D.lexicalWeight.examples,
    'lexicalWeight.descriptionsOnly': D.lexicalWeight.descriptionsOnly,
    regularization: D.regularization,
    descriptionWeight: D.descriptionWeight,
    'features.style': F.style,
    'features.surface': F.surface,
    'features.complexity': F.complexity,
    'features.opinion': F.opinion,
    'features.language': F.language,
    followUpWeight: D.followUpWeight,
    instructionWeight: D.instructionWeight,
    corpusWeight: D.corpusWeight,
    catchAllCorpusWeight: D.catchAllCorpusWeight,
    corpusLexicalWeight: D.corpusLexicalWeight,
    corpusMatch: D.corpusMatch,
    corpusMargin: D.corpusMargin,
    corpusHalfWeightExamples: D.corpusHalfWeightExamples,
    intentMetric: D.intentMetric,
    'messageWeights.earlier': D.messageWeights.earlierUser,
  };
  return PARAMETERS.map((p) => {
    const index = p.values.indexOf(current[p.name]!);
    if (index < 0) throw new Error(`default ${p.name}=${current[p.name]} is not on the grid`);
    return index;
  });
}

export function optionsAt(
  point: readonly number[],
  temperature: EmbeddedVectorDecisionModelOptions['temperature'] = 1,
): EmbeddedVectorDecisionModelOptions {
  return PARAMETERS.reduce<EmbeddedVectorDecisionModelOptions>(
    (options, p, i) => p.apply(options, p.values[point[i]!]!),
    { temperature },
  );
}

export const describePoint = (point: readonly number[]) =>
  PARAMETERS.map((p, i) => `${p.name} ${p.values[point[i]!]}`).join(', ');

/** Outcomes of every case at a grid point (accuracy does not depend on the temperature). */
export class Tuner {
  private readonly memo = new Map<string, Outcome[]>();

  constructor(private readonly cases: readonly Case[]) {}

  async run(point: readonly number[]): Promise<Outcome[]> {
    const key = point.join(',');
    let outcomes = this.memo.get(key);
    if (!outcomes) {
      const model = new EmbeddedVectorDecisionModel(optionsAt(point, 1));
      outcomes = [];
      for (const c of this.cases) outcomes.push(await decideCase(model, c));
      this.memo.set(key, outcomes);
    }
    return outcomes;
  }

  /** Mean over sets of the accuracy on the cases `include` keeps. */
  async score(point: readonly number[], include: (c: Case) => boolean): Promise<number> {
    const outcomes = await this.run(point);
    const bySet = new Map<string, { correct: number; total: number }>();
    this.cases.forEach((c, i) => {
      if (!include(c)) return;
      const entry = bySet.get(c.set) ?? { correct: 0, total: 0 };
      entry.total++;
      if (outcomes[i]!.correct) entry.correct++;
      bySet.set(c.set, entry);
    });
    const accuracies = [...bySet.values()].map((e) => e.correct / e.total);
    return accuracies.reduce((a, b) => a + b, 0) / Math.max(1, accuracies.length);
  }

  /** Coordinate search from `start`: change one parameter at a time while the score improves. */
  async search(include: (c: Case) => boolean, start: readonly number[]): Promise<number[]> {
    let best = [...start];
    let bestScore = await this.score(best, include);
    for (let round = 0; round < 3; round++) {
      let improved = false;
      for (let p = 0; p < PARAMETERS.length; p++) {
        for (let v = 0; v < PARAMETERS[p]!.values.length; v++) {
          if (v === best[p]) continue;
          const candidate = [...best];
          candidate[p] = v;
          const score = await this.score(candidate, include);
          if (score > bestScore + 1e-9) {
            best = candidate;
            bestScore = score;
            improved = true;
          }
        }
      }
      if (!improved) break;
    }
    return best;
  }
}

export const TEMPERATURES = [0.25, 0.35, 0.5, 0.7, 1, 1.4, 2, 2.8, 4, 5.6, 8];

const withExamples = (c: Case) => c.choice.options.some((o) => (o.examples ?? []).length > 0);

/**
 * For each kind of question (with examples, descriptions only), the lowest temperature at which
 * every set of that kind is right at least 95 % of the time when the top probability is ≥ 0.6, so
 * that `minProbability: 0.6` means what it says. (Least log-loss would be lower: 0.5 with
 * examples, where 8-route sets are then right 80–85 % of the time at p ≥ 0.6.)
 */
export async function chooseTemperature(
  cases: readonly Case[],
  point: readonly number[],
): Promise<{ examples: number; descriptionsOnly: number }> {
  const chosen = { examples: TEMPERATURES.at(-1)!, descriptionsOnly: TEMPERATURES.at(-1)! };
  for (const kind of ['examples', 'descriptionsOnly'] as const) {
    const mine = cases.filter((c) => withExamples(c) === (kind === 'examples'));
    for (const temperature of TEMPERATURES) {
      const model = new EmbeddedVectorDecisionModel(optionsAt(point, temperature));
      const bySet = new Map<string, Outcome[]>();
      for (const c of mine) {
        const outcomes = bySet.get(c.set) ?? [];
        outcomes.push(await decideCase(model, c));
        bySet.set(c.set, outcomes);
      }
      const calibrated = [...bySet.values()].every((outcomes) => {
        const { accuracy, share } = calibration(outcomes, CONFIDENT);
        return share === 0 || accuracy >= CALIBRATION_BAR;
      });
      if (calibrated) {
        chosen[kind] = temperature;
        break;
      }
    }
  }
  return chosen;
}

/**
 * What every dev set must reach at p ≥ CONFIDENT: 5 points above the 90 % promised, because items
 * the temperature was not chosen on are less well calibrated (the fourth round's temperature, chosen
 * at exactly 90 % on dev, gave 90.4 % on the blind sets). Without examples no temperature of the
 * grid reaches it on every set, and the highest is taken.
 */
export const CALIBRATION_BAR = 0.95;

/** The probability the calibration promise is made at. */
export const CONFIDENT = 0.6;

export interface CrossValidation {
  /** Per set: accuracy on each dev item, by the defaults chosen without its fold. */
  accuracy: Map<string, number>;
  outcomes: { set: string; outcome: Outcome }[];
  chosen: string[];
}

/** Choose on 4 folds, score the fifth; every dev item is scored exactly once. */
export async function crossValidate(
  cases: readonly Case[],
  tuner: Tuner,
): Promise<CrossValidation> {
  const dev = cases.filter((c) => c.split === 'dev');
  const outcomes: { set: string; outcome: Outcome }[] = [];
  const chosen: string[] = [];
  for (let fold = 0; fold < FOLDS; fold++) {
    const inFold = (c: Case) => c.split === 'dev' && c.devIndex % FOLDS === fold;
    const point = await tuner.search((c) => c.split === 'dev' && !inFold(c), shippedPoint());
    const temperature = await chooseTemperature(
      dev.filter((c) => !inFold(c)),
      point,
    );
    chosen.push(
      `fold ${fold + 1}: ${describePoint(point)}, temperature ${temperature.examples} / ${temperature.descriptionsOnly}`,
    );
    const model = new EmbeddedVectorDecisionModel(optionsAt(point, temperature));
    for (const c of dev.filter(inFold))
      outcomes.push({ set: c.set, outcome: await decideCase(model, c) });
  }
  const accuracy = new Map<string, number>();
  for (const set of new Set(outcomes.map((o) => o.set))) {
    const mine = outcomes.filter((o) => o.set === set);
    accuracy.set(set, mine.filter((o) => o.outcome.correct).length / mine.length);
  }
  return { accuracy, outcomes, chosen };
}
