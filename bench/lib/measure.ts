import { performance } from 'node:perf_hooks';

export interface Measurement {
  name: string;
  /** Median nanoseconds per operation over the rounds. */
  nsPerOp: number;
}

/**
 * Runs `fn` in rounds and returns the median time per call. Several rounds with a median resist
 * this machine's noise better than one long run; a warm-up lets the JIT settle first.
 */
export async function measure(
  name: string,
  fn: () => unknown | Promise<unknown>,
  { iterations = 20_000, rounds = 7, warmup = 5_000 } = {},
): Promise<Measurement> {
  for (let i = 0; i < warmup; i++) await fn();
  const perRound: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const start = performance.now();
    for (let i = 0; i < iterations; i++) await fn();
    perRound.push(((performance.now() - start) * 1e6) / iterations);
  }
  perRound.sort((a, b) => a - b);
  return { name, nsPerOp: perRound[Math.floor(rounds / 2)]! };
}

export interface Row {
  benchmark: string;
  figure: string;
  baseline: string;
  ratio: string;
}

/** Prints a Markdown table, ready to paste into the README. */
export function printTable(title: string, rows: Row[]): void {
  console.log(`\n### ${title}\n`);
  console.log('| benchmark | figure | baseline (same run) | ratio |');
  console.log('|---|---|---|---|');
  for (const row of rows) {
    console.log(`| ${row.benchmark} | ${row.figure} | ${row.baseline} | ${row.ratio} |`);
  }
}

export const us = (ns: number): string => `${(ns / 1000).toFixed(2)} µs`;
/** `a / b` as "1.23×"; "–" when the baseline is 0 (a 2-item set the baseline gets all wrong). */
export const ratio = (a: number, b: number): string => (b === 0 ? '–' : `${(a / b).toFixed(2)}×`);

/** The middle value (the upper one of an even count). */
export const median = (values: number[]): number =>
  values.toSorted((a, b) => a - b)[values.length >> 1]!;

/** Medians per call of several variants measured in interleaved rounds. */
export interface InterleavedMeasurement {
  /** Median wall-clock nanoseconds per call, per variant. */
  nsPerOp: number[];
  /** Median CPU nanoseconds per call (this process, user + system), per variant. */
  cpuNsPerOp: number[];
}

/**
 * Measures variants round by round, each round running every variant in turn, so a machine that
 * slows down or speeds up during the run moves every variant alike (measured one after another,
 * the last ones would take the drift alone). CPU time beside wall time: on a machine shared with
 * other work, the time other processes take the core is not counted against the variant.
 */
export async function measureInterleaved(
  fns: (() => unknown | Promise<unknown>)[],
  { iterations = 10_000, rounds = 15, warmup = 5_000 } = {},
): Promise<InterleavedMeasurement> {
  for (const fn of fns) for (let i = 0; i < warmup; i++) await fn();
  const wall = fns.map((): number[] => []);
  const cpu = fns.map((): number[] => []);
  for (let r = 0; r < rounds; r++) {
    for (const [index, fn] of fns.entries()) {
      const start = performance.now();
      const startCpu = process.cpuUsage();
      for (let i = 0; i < iterations; i++) await fn();
      const used = process.cpuUsage(startCpu);
      wall[index]!.push(((performance.now() - start) * 1e6) / iterations);
      cpu[index]!.push(((used.user + used.system) * 1e3) / iterations);
    }
  }
  return { nsPerOp: wall.map(median), cpuNsPerOp: cpu.map(median) };
}

/**
 * This tree against a baseline tree in alternating batches (who goes first alternates, so neither
 * always runs on a warmer or cooler moment); each batch returns its CPU µs per call. The row's
 * ratio is the median of the per-batch ratios, with their quartiles: the spread a reader needs
 * to tell a change from the machine's noise.
 */
export async function batchesAgainstBaseline(
  benchmark: string,
  ours: () => Promise<number>,
  theirs: () => Promise<number>,
  rounds: number,
  digits = 1,
): Promise<Row> {
  const a: number[] = [];
  const b: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const first = round % 2 === 0;
    const x = first ? await ours() : 0;
    const y = await theirs();
    const z = first ? x : await ours();
    a.push(z);
    b.push(y);
    ratios.push(z / y);
  }
  const sorted = ratios.toSorted((p, q) => p - q);
  const quartile = (q: number) => sorted[Math.floor(q * rounds)]!.toFixed(2);
  return {
    benchmark,
    figure: `${median(a).toFixed(digits)} µs`,
    baseline: `${median(b).toFixed(digits)} µs`,
    ratio: `${median(ratios).toFixed(3)}× baseline (quartiles ${quartile(0.25)}–${quartile(0.75)})`,
  };
}
