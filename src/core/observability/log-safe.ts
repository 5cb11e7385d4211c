const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

// C0 and C1 controls, DEL, the two Unicode line separators, and the bidirectional formatting
// characters, which make a viewer show a line's text in another order than it was written
// (Trojan Source, CVE-2021-42574): a client's name with U+202E would read backwards
// oxlint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

/**
 * Text for a log line with its control characters escaped (a newline as `\n`, ESC as `\u001b`).
 * Log lines carry strings a client chose or influenced (`provider/model-id`, a `models` list, a
 * decision model's answer, an error message that quotes them): a newline in one would forge a
 * log line of its own, an escape sequence would repaint the terminal. In core so that every
 * layer that logs (core's default console logger, nest, the gateway) escapes the same way.
 */
export function logSafe(text: string): string {
  return text.replace(
    CONTROL,
    (char) => NAMED[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
