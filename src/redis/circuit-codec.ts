import type { CircuitState } from '../core/observability/routing-event.js';
import { CLOSED_CIRCUIT, type CircuitRecord } from '../core/state/route-state-store.js';

type StoredCircuit = Omit<CircuitRecord, 'version'>;
type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const STATES: ReadonlySet<string> = new Set<CircuitState>(['closed', 'open', 'half-open']);
const REQUIRED_COUNTS = ['failures', 'consecutiveFailures', 'reopenCount', 'probes'] as const;

/**
 * The JSON stored in Redis: the record without its version (Redis keeps that beside it). Every
 * field is kept, including ones a newer breaker adds, so the breaker owns the record's shape.
 */
export function encodeCircuit(record: StoredCircuit): string {
  return JSON.stringify(storedFields(record));
}

/**
 * The record as every replica will see it once it has been through Redis: the same fields a
 * JSON round trip keeps (no `undefined` values), plus the version.
 */
export function withVersion(next: StoredCircuit, version: number): CircuitRecord {
  return Object.freeze({ ...storedFields(next), version } as CircuitRecord);
}

function storedFields(record: StoredCircuit): StoredCircuit {
  const stored: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(record)) {
    if (field !== 'version' && value !== undefined) stored[field] = value;
  }
  return stored as unknown as StoredCircuit;
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
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const fields = value as Record<string, unknown>;
  if (typeof fields.state !== 'string' || !STATES.has(fields.state)) return undefined;
  if (!REQUIRED_COUNTS.every((field) => isFiniteNumber(fields[field]))) return undefined;
  const record: Record<string, unknown> = {};
  for (const [field, fieldValue] of Object.entries(fields)) {
    if (field === 'version' || fieldValue === null) continue;
    if (field === 'lastError') {
      const lastError = readLastError(fieldValue);
      if (lastError) record.lastError = lastError;
      continue;
    }
    record[field] = fieldValue;
  }
  record.version = version;
  return Object.freeze(record as unknown as Mutable<CircuitRecord>);
}

function readLastError(value: unknown): CircuitRecord['lastError'] | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { name, message, at } = value as Record<string, unknown>;
  if (typeof name !== 'string' || typeof message !== 'string' || !isFiniteNumber(at)) {
    return undefined;
  }
  return { name, message, at };
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

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}
