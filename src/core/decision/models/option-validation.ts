import { InvalidConfigurationException } from '../../errors/exceptions.js';

/** Constructor checks shared by the decision models; each error names the option field. */
export function checkPositive(value: number | undefined, field: string): void {
  if (value !== undefined && !(Number.isFinite(value) && value > 0)) {
    throw new InvalidConfigurationException(
      `${field} must be a positive number, got ${String(value)}`,
    );
  }
}

export function checkFraction(value: number | undefined, field: string): void {
  if (value !== undefined && !(Number.isFinite(value) && value >= 0 && value <= 1)) {
    throw new InvalidConfigurationException(
      `${field} must be between 0 and 1, got ${String(value)}`,
    );
  }
}

export function checkPositiveInteger(value: number | undefined, field: string): void {
  if (value !== undefined && !(Number.isInteger(value) && value >= 1)) {
    throw new InvalidConfigurationException(
      `${field} must be an integer ≥ 1, got ${String(value)}`,
    );
  }
}

export function checkNonNegative(value: number | undefined, field: string): void {
  if (value !== undefined && !(Number.isFinite(value) && value >= 0)) {
    throw new InvalidConfigurationException(`${field} must be a number ≥ 0, got ${String(value)}`);
  }
}

/** A score in cosine units. */
export function checkCosine(value: number | undefined, field: string): void {
  if (value !== undefined && !(Number.isFinite(value) && value >= -1 && value <= 1)) {
    throw new InvalidConfigurationException(
      `${field} must be between -1 and 1, got ${String(value)}`,
    );
  }
}

/** A check of a setting given as one number or per kind of question (`{ examples, descriptionsOnly }`). */
export function checkPerKind(
  value: number | { examples?: number; descriptionsOnly?: number } | undefined,
  field: string,
  check: (value: number | undefined, field: string) => void,
): void {
  if (typeof value === 'object' && value !== null) {
    check(value.examples, `${field}.examples`);
    check(value.descriptionsOnly, `${field}.descriptionsOnly`);
  } else {
    check(value, field);
  }
}
