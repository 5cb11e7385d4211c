/**
 * How much to trust the zero-shot model and each kind of learned evidence, fitted on the learned
 * examples themselves: each example is scored by the others (leave one out), and the weights
 * (θ, one per source) that give its own option the highest log-probability are found by a few
 * Newton steps, pulled towards 1 (the defaults) by an L2 penalty. With a few examples the
 * defaults stand; with many, the fit says whether this deployment's routes are told apart by
 * what the zero-shot model knows (a simple/complex split by form) or by the words its traffic uses
 * (a bank desk's "standing order").
 */

/** One learned example as the fit sees it: per source, a score per option; and its option. */
export interface BlendRow {
  /** sources × options, source-major. */
  readonly scores: Float64Array;
  readonly label: number;
  /** Its weight in the fit (default 1). */
  readonly weight?: number;
}

const NEWTON_STEPS = 8;

/**
 * The weights θ (one per source, penalized towards 1) maximizing the rows' penalized
 * log-likelihood, followed by one bias per option when `biasPenalty` is finite (penalized towards
 * 0): they correct a zero-shot model that leans towards some option on this deployment's traffic.
 */
export function fitBlend(
  given: readonly BlendRow[],
  scoreSources: number,
  options: number,
  penalty: number,
  biasPenalty = Infinity,
): Float64Array {
  const biased = Number.isFinite(biasPenalty);
  const sources = scoreSources + (biased ? options : 0);
  const theta = new Float64Array(sources).fill(1);
  if (biased) theta.fill(0, scoreSources);
  if (given.length === 0) return theta;
  // a bias is a source scoring 1 for its option and 0 for the others
  const rows = biased
    ? given.map(({ scores, label, weight }) => {
        const augmented = new Float64Array(sources * options);
        augmented.set(scores);
        for (let i = 0; i < options; i++) augmented[(scoreSources + i) * options + i] = 1;
        return { scores: augmented, label, weight };
      })
    : given;
  const work: Work = {
    sources,
    options,
    gradient: new Float64Array(sources),
    hessian: new Float64Array(sources * sources),
    p: new Float64Array(options),
    mean: new Float64Array(sources),
  };
  for (let step = 0; step < NEWTON_STEPS; step++) {
    work.hessian.fill(0);
    for (let s = 0; s < sources; s++) {
      const [target, strength] = s < scoreSources ? [1, penalty] : [0, biasPenalty];
      work.gradient[s] = strength * (theta[s]! - target);
      work.hessian[s * sources + s] = strength;
    }
    for (const row of rows) addRow(work, theta, row.scores, row.label, row.weight ?? 1);
    const delta = solve(work.hessian, work.gradient, sources);
    // weights stay ≥ 0: a source is trusted less, never reversed
    for (let s = 0; s < sources; s++) {
      theta[s] = s < scoreSources ? Math.max(0, theta[s]! - delta[s]!) : theta[s]! - delta[s]!;
    }
  }
  return theta;
}

interface Work {
  sources: number;
  options: number;
  gradient: Float64Array;
  hessian: Float64Array;
  /** The row's probabilities, and the sources' means under them. */
  p: Float64Array;
  mean: Float64Array;
}

// One row's share of the gradient and Hessian, in a small function of its own: called hundreds of
// times per fit, it is optimized by the JIT within the first fit (one large function of nested
// loops ran unoptimized, about 10× slower).
function addRow(
  work: Work,
  theta: Float64Array,
  scores: Float64Array,
  label: number,
  weight: number,
): void {
  const { sources, options, gradient, hessian, p, mean } = work;
  let max = -Infinity;
  for (let i = 0; i < options; i++) {
    let z = 0;
    for (let s = 0; s < sources; s++) z += theta[s]! * scores[s * options + i]!;
    p[i] = z;
    if (z > max) max = z;
  }
  let sum = 0;
  for (let i = 0; i < options; i++) sum += p[i] = Math.exp(p[i]! - max);
  for (let i = 0; i < options; i++) p[i]! /= sum;
  for (let s = 0; s < sources; s++) {
    let m = 0;
    for (let i = 0; i < options; i++) m += p[i]! * scores[s * options + i]!;
    mean[s] = m;
    gradient[s]! += weight * (m - scores[s * options + label]!);
  }
  // the Hessian of the log-sum-exp: the covariance of the sources' scores under p
  for (let s = 0; s < sources; s++) {
    for (let t = s; t < sources; t++) {
      let c = 0;
      for (let i = 0; i < options; i++) {
        c += p[i]! * (scores[s * options + i]! - mean[s]!) * (scores[t * options + i]! - mean[t]!);
      }
      hessian[s * sources + t]! += weight * c;
      if (t !== s) hessian[t * sources + s]! += weight * c;
    }
  }
}

/** Solves H x = g (H symmetric positive definite, tiny) by Gaussian elimination. */
function solve(h: Float64Array, g: Float64Array, n: number): Float64Array {
  const a = Float64Array.from(h);
  const x = Float64Array.from(g);
  for (let c = 0; c < n; c++) {
    const pivot = a[c * n + c]!;
    for (let r = c + 1; r < n; r++) {
      const f = a[r * n + c]! / pivot;
      for (let k = c; k < n; k++) a[r * n + k]! -= f * a[c * n + k]!;
      x[r]! -= f * x[c]!;
    }
  }
  for (let r = n - 1; r >= 0; r--) {
    let v = x[r]!;
    for (let k = r + 1; k < n; k++) v -= a[r * n + k]! * x[k]!;
    x[r] = v / a[r * n + r]!;
  }
  return x;
}
