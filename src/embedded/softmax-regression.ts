/**
 * Multinomial logistic regression with an L2 penalty, fitted on a handful of weighted points (a
 * question's descriptions and examples: tens, not thousands). It is solved in the points' span —
 * the weights are Σ αₙ xₙ, which is where an L2-penalized optimum lies — so each step costs
 * n² × classes instead of n × features × classes, with Nesterov momentum and a fixed number of
 * steps. The fixed budget is part of the model: its defaults were chosen together with it.
 */
export interface RegressionSettings {
  /** L2 penalty on the weights (relative to a loss averaged over the points). */
  l2: number;
  iterations: number;
  learningRate: number;
}

export const DEFAULT_REGRESSION: Readonly<RegressionSettings> = {
  l2: 0.001,
  iterations: 40,
  learningRate: 2,
};

export interface TrainingPoint {
  vector: Float64Array;
  label: number;
  weight: number;
}

/** Row-major weights, `classes` rows of `features` numbers. */
export interface LinearModel {
  readonly classes: number;
  readonly features: number;
  readonly weights: Float64Array;
}

export function fitSoftmaxRegression(
  points: readonly TrainingPoint[],
  classes: number,
  settings: RegressionSettings,
): LinearModel {
  const features = points[0]?.vector.length ?? 0;
  const n = points.length;
  const weights = new Float64Array(classes * features);
  if (n === 0 || classes < 2) return { classes, features, weights };

  const totalWeight = points.reduce((sum, point) => sum + point.weight, 0) || 1;
  const share = points.map((point) => point.weight / totalWeight);
  const gram = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    const a = points[i]!.vector;
    for (let j = i; j < n; j++) {
      const dot = dotAt(a, 0, points[j]!.vector, 0, features);
      gram[i * n + j] = dot;
      gram[j * n + i] = dot;
    }
  }

  // Class-major (alpha[k * n + j]) so that the inner loops run along the points.
  const alpha = new Float64Array(classes * n);
  const velocity = new Float64Array(classes * n);
  const lookahead = new Float64Array(classes * n);
  const logits = new Float64Array(classes);
  const { l2, learningRate } = settings;
  const momentum = 0.9;
  for (let step = 0, steps = stepsWithin(settings.iterations, n, classes); step < steps; step++) {
    for (let i = 0; i < alpha.length; i++) lookahead[i] = alpha[i]! + momentum * velocity[i]!;
    for (let m = 0; m < n; m++) {
      const row = m * n;
      let max = -Infinity;
      for (let k = 0; k < classes; k++) {
        const z = dotAt(gram, row, lookahead, k * n, n);
        logits[k] = z;
        if (z > max) max = z;
      }
      let sum = 0;
      for (let k = 0; k < classes; k++) sum += logits[k] = Math.exp(logits[k]! - max);
      const label = points[m]!.label;
      for (let k = 0; k < classes; k++) {
        const index = k * n + m;
        const gradient =
          share[m]! * (logits[k]! / sum - (k === label ? 1 : 0)) + l2 * lookahead[index]!;
        velocity[index] = momentum * velocity[index]! - learningRate * gradient;
      }
    }
    for (let i = 0; i < alpha.length; i++) alpha[i]! += velocity[i]!;
  }

  for (let k = 0; k < classes; k++) {
    for (let m = 0; m < n; m++) {
      addScaled(weights, k * features, points[m]!.vector, alpha[k * n + m]!, features);
    }
  }
  return { classes, features, weights };
}

/**
 * Each step costs n² × classes multiply-adds. A large question (50 routes × 10 examples is 750
 * points) takes fewer steps, so that fitting stays within about a tenth of a second; fewer steps
 * stop between the class centroids (the first step) and the full regression.
 */
const STEP_BUDGET = 60_000_000;
const MIN_STEPS = 3;

function stepsWithin(iterations: number, n: number, classes: number): number {
  return Math.min(iterations, Math.max(MIN_STEPS, Math.floor(STEP_BUDGET / (n * n * classes))));
}

// Small helpers rather than inline loops: called thousands of times per fit, they are optimized
// by the JIT within the first fit, where one large function would run unoptimized for most of it.
function dotAt(a: Float64Array, aFrom: number, b: Float64Array, bFrom: number, length: number) {
  let sum = 0;
  for (let i = 0; i < length; i++) sum += a[aFrom + i]! * b[bFrom + i]!;
  return sum;
}

function addScaled(
  target: Float64Array,
  from: number,
  source: Float64Array,
  factor: number,
  length: number,
) {
  if (factor === 0) return;
  for (let i = 0; i < length; i++) target[from + i]! += factor * source[i]!;
}

/** The model's logits for one feature vector, into `out`. */
export function linearLogits(model: LinearModel, x: Float64Array, out: Float64Array): void {
  const { classes, features, weights } = model;
  for (let k = 0; k < classes; k++) out[k] = dotAt(weights, k * features, x, 0, features);
}
