import type { ErrorSummary } from './routing-event.js';

/**
 * Last line of defence before a message leaves the process (events, health): providers already
 * keep keys out of their messages, but a third-party model or an SDK error might not.
 */
const SECRET_PATTERNS: [RegExp, string][] = [
  // credentials in URLs: redis://user:password@host, https://key@host
  [/([a-z][a-z0-9+.-]*:\/\/)[^/\s:@]*(:[^/\s@]*)?@/gi, '$1***@'],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/g, '$1 ***'],
  [/\b(sk|pk|rk)-[A-Za-z0-9_-]{8,}/g, '$1-***'],
  [
    /\b(api[_-]?key|x-api-key|token|password|secret)(["']?\s*[:=]\s*["']?)[^\s"',;&)\]}]+/gi,
    '$1$2***',
  ],
];

export function scrubCredentials(text: string): string {
  let result = text;
  for (const [pattern, replacement] of SECRET_PATTERNS)
    result = result.replace(pattern, replacement);
  return result;
}

export function safeErrorSummary(summary: ErrorSummary): ErrorSummary {
  return { name: summary.name, message: scrubCredentials(summary.message) };
}
