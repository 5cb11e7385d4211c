import {
  kindOfStatus,
  QUOTA_CODES,
  type ErrorKind,
} from '../../core/resilience/error-classification.js';

const CONTEXT_LENGTH_CODES = new Set(['context_length_exceeded', 'string_above_max_length']);
const CONTEXT_LENGTH_TEXT =
  /context[_ ]length|maximum context|context window|prompt is too long|input is too long|too many (input )?tokens|reduce the length/i;
const CONTENT_POLICY_CODES = new Set([
  'content_filter',
  'content_policy_violation',
  'responsibleaipolicyviolation',
]);
const CONTENT_POLICY_TEXT = /content[_ ](management )?polic|content[_ ]filter|safety system/i;

export interface ProviderErrorFacts {
  status?: number;
  /** Every code the provider gave (`code`, `type`, inner codes), most specific first. */
  codes: string[];
  message: string;
}

/**
 * The kind of a provider's error answer, from its status, codes and message:
 * context-length and content-policy are recognised by code or wording first (providers send them
 * as 400s, sometimes 413/422), an exhausted quota by code (misconfigured: waiting does not help);
 * then the status, by core's one table (`kindOfStatus`). No status (an error event inside a
 * stream) → transient, unless a code says rate limit.
 */
export function kindOfProviderError(facts: ProviderErrorFacts): ErrorKind {
  const codes = facts.codes.map((code) => code.toLowerCase());
  const clientSide = facts.status === undefined || (facts.status >= 400 && facts.status < 500);
  if (clientSide) {
    if (
      codes.some((code) => CONTEXT_LENGTH_CODES.has(code)) ||
      CONTEXT_LENGTH_TEXT.test(facts.message)
    ) {
      return 'context-length';
    }
    if (
      codes.some((code) => CONTENT_POLICY_CODES.has(code)) ||
      CONTENT_POLICY_TEXT.test(facts.message)
    ) {
      return 'content-policy';
    }
  }
  if (codes.some((code) => QUOTA_CODES.has(code))) return 'misconfigured';
  const status = facts.status;
  if (status === undefined) {
    return codes.some((code) => code.includes('rate_limit')) ? 'rate-limited' : 'transient';
  }
  return kindOfStatus(status) ?? 'unknown';
}
