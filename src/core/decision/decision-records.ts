import { randomFillSync } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { ChoiceOptions } from './choice-options.js';
import type { ChoiceQuestion, DecisionInput } from './decision-model.js';

/** What a decision's feedback needs to know about it. */
export interface DecisionRecord {
  readonly input: DecisionInput;
  /** The route it chose. */
  readonly route: string;
  /** The routes it could choose from (the call's candidates), in order. */
  readonly routes: readonly string[];
  /** The caller scope that made the call (a gateway key's name), when known. */
  readonly caller: string | undefined;
  /** The options and question it was asked with. */
  readonly choice: ChoiceOptions;
  readonly question: ChoiceQuestion;
  readonly at: number;
  /** The route the feedback it received named, once it received one. */
  feedback?: string;
}

export interface DecisionRecordsOptions {
  /** How long a decision takes feedback. Default 1 hour. */
  windowMs?: number;
  /** Most decisions on record; beyond it the oldest is forgotten. Default 10,000. */
  maxRecords?: number;
}

export const DEFAULT_DECISION_WINDOW_MS = 60 * 60_000;
export const DEFAULT_MAX_DECISION_RECORDS = 10_000;

/**
 * Random bytes drawn 4 KiB at a time, each byte used once: a `randomBytes(16)` per decision cost
 * some 7 µs (a call into OpenSSL and a Buffer each), a slice of the pool a tenth of that.
 */
const RANDOM_POOL = Buffer.alloc(4096);
let poolUsed = RANDOM_POOL.length;

/** A new decision id: 128 random bits, URL-safe, so nobody can guess another caller's. */
export function newDecisionId(): string {
  if (poolUsed + 16 > RANDOM_POOL.length) {
    randomFillSync(RANDOM_POOL);
    poolUsed = 0;
  }
  const id = RANDOM_POOL.toString('base64url', poolUsed, poolUsed + 16);
  poolUsed += 16;
  return id;
}

/**
 * The recent decisions of one router, by id: bounded in count and in time, so a busy router keeps
 * a few MB at most. A Map keeps insertion order, so the first entry is always the oldest.
 */
export class DecisionRecords {
  private readonly records = new Map<string, DecisionRecord>();
  readonly windowMs: number;
  readonly maxRecords: number;

  constructor(
    private readonly clock: Clock,
    options: DecisionRecordsOptions = {},
  ) {
    this.windowMs = options.windowMs ?? DEFAULT_DECISION_WINDOW_MS;
    this.maxRecords = options.maxRecords ?? DEFAULT_MAX_DECISION_RECORDS;
  }

  /** Records a decision and returns its id. */
  add(record: Omit<DecisionRecord, 'at' | 'feedback'>): string {
    const now = this.clock();
    this.expire(now);
    while (this.records.size >= this.maxRecords) {
      this.records.delete(this.records.keys().next().value as string);
    }
    const id = newDecisionId();
    this.records.set(id, { ...record, at: now });
    return id;
  }

  /** The decision, while it is within the window. */
  get(id: string): DecisionRecord | undefined {
    const record = this.records.get(id);
    if (record === undefined) return undefined;
    if (this.clock() - record.at >= this.windowMs) {
      this.records.delete(id);
      return undefined;
    }
    return record;
  }

  get size(): number {
    return this.records.size;
  }

  private expire(now: number): void {
    for (const [id, record] of this.records) {
      if (now - record.at < this.windowMs) return;
      this.records.delete(id);
    }
  }
}
