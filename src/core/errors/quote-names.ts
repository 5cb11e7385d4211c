/** Names as error messages list them: `'a', 'b'`, or `(none)`. */
export function quoteNames(names: readonly string[]): string {
  return names.length === 0 ? '(none)' : names.map((name) => `'${name}'`).join(', ');
}
