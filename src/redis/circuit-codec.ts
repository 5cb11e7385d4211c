import type { CircuitState } from '../core/observability/routing-event.js';
import { CLOSED_CIRCUIT, type CircuitRecord } from '../core/state/route-state-store.js';

type StoredCircuit = Omit<CircuitRecord, 'version'>;

const STATES: ReadonlySet<string> = new Set<CircuitState>(['closed', 'open', 'half-open']);

/** The JSON stored in Redis: the record without its version (Redis keeps that beside it). */
export function encodeCircuit(record: StoredCircuit): string {
  return JSON.stringify(knownFields(record));
}

/**
 * The record every replica will see: only the fields of `CircuitRecord`, so a replica never sees
 * more locally than the others read back from Redis.
 */
export function withVersion(next: StoredCircuit, version: number): CircuitRecord {
  return Object.freeze({ ...knownFields(next), version } as CircuitRecord);
}

function knownFields(record: StoredCircuit): StoredCircuit {
  const stored: { -readonly [K in keyof StoredCircuit]: StoredCircuit[K] } = {
    state: record.state,
    failures: record.failures,
    consecutiveFailures: record.consecutiveFailures,
    reopenCount: record.reopenCount,
    probes: record.probes,
  };
  if (record.openedAt !== undefined) stored.openedAt = record.openedAt;
  if (record.cooldownUntil !== undefined) stored.cooldownUntil = record.cooldownUntil;
  if (record.lastError !== undefined) {
    stored.lastError = {
      name: record.lastError.name,
      message: record.lastError.message,
      at: record.lastError.at,
    };
  }
  return stored;
}

/**
 * Reads a stored record back. Anything that is not a record this library wrote (another program
 * sharing the prefix, a half-written value) yields `undefined`, so the caller can report it.
 */
export function decodeCircuit(json: string, version: number): CircuitRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v.state !== 'string' || !STATES.has(v.state)) return undefined;
  const counts = ['failures', 'consecutiveFailures', 'reopenCount', 'probes'] as const;
  if (!counts.every((field) => isFiniteNumber(v[field]))) return undefined;
  const record: {
    -readonly [K in keyof CircuitRecord]: CircuitRecord[K];
  } = {
    state: v.state as CircuitState,
    failures: v.failures as number,
    consecutiveFailures: v.consecutiveFailures as number,
    reopenCount: v.reopenCount as number,
    probes: v.probes as number,
    version,
  };
  if (isFiniteNumber(v.openedAt)) record.openedAt = v.openedAt;
  if (isFiniteNumber(v.cooldownUntil)) record.cooldownUntil = v.cooldownUntil;
  const lastError = v.lastError as Record<string, unknown> | undefined;
  if (
    typeof lastError === 'object' &&
    lastError !== null &&
    typeof lastError.name === 'string' &&
    typeof lastError.message === 'string' &&
    isFiniteNumber(lastError.at)
  ) {
    record.lastError = { name: lastError.name, message: lastError.message, at: lastError.at };
  }
  return Object.freeze(record);
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/**
 * A stored value that cannot be read is shown as a closed circuit carrying the stored version,
 * so the next compare-and-set replaces it instead of failing on it forever.
 */
export function decodeCircuitOrClosed(
  json: string | null | undefined,
  version: number,
): { record: CircuitRecord; valid: boolean } {
  const record = typeof json === 'string' ? decodeCircuit(json, version) : undefined;
  if (record) return { record, valid: true };
  return { record: withVersion(CLOSED_CIRCUIT, version), valid: false };
}
