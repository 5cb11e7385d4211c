/**
 * A matcher for names against patterns where `*` stands for any run of characters (a `/`
 * included, so `openai/*` covers every OpenAI model) and everything else is literal.
 */
export function globMatcher(patterns: readonly string[]): (name: string) => boolean {
  const exact = new Set(patterns.filter((pattern) => !pattern.includes('*')));
  const globs = patterns
    .filter((pattern) => pattern.includes('*'))
    .map((pattern) => new RegExp(`^${pattern.split('*').map(escape).join('.*')}$`, 's'));
  return (name) => exact.has(name) || globs.some((glob) => glob.test(name));
}

function escape(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}
