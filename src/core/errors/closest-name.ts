/**
 * The known name a mistyped one most likely meant (`descripton` → `description`, `openia` →
 * `openai`, `cooldownMS` → `cooldownMs`), so an error can say "did you mean …?" as well as list
 * what is known. Case is ignored; a swap of two neighbouring letters counts as one edit. Only a
 * close name is suggested (for names of up to three characters only another case, up to five
 * one edit, two beyond), and only one: when two are equally close the list alone is shown
 * rather than a guess.
 */
export function closestName(name: string, known: readonly string[]): string | undefined {
  const wanted = name.toLowerCase();
  // `b` for `a` is no suggestion: the shorter the name, the fewer edits it may be from the guess
  const allowed = wanted.length <= 3 ? 0 : wanted.length <= 5 ? 1 : 2;
  let best: string | undefined;
  let bestDistance = allowed + 1;
  let tie = false;
  for (const candidate of known) {
    const distance = editDistance(wanted, candidate.toLowerCase(), allowed);
    if (distance < bestDistance) {
      [best, bestDistance, tie] = [candidate, distance, false];
    } else if (distance === bestDistance && candidate !== best) {
      tie = true;
    }
  }
  return best !== undefined && !tie && best !== name ? best : undefined;
}

/** `; did you mean 'x'?` when a known name is close to the one given, else nothing. */
export function didYouMean(name: string, known: readonly string[]): string {
  const suggestion = closestName(name, known);
  return suggestion === undefined ? '' : `; did you mean '${suggestion}'?`;
}

/**
 * Optimal string alignment distance (insertions, deletions, substitutions, adjacent swaps),
 * stopping early once every path exceeds `limit`: names are short and lists small.
 */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let twoBack: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, twoBack[j - 2]! + 1);
      }
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > limit) return limit + 1;
    [twoBack, previous] = [previous, current];
  }
  return previous[b.length]!;
}
