/** Reading Prometheus text expositions in tests. */

/** The value of the sample `name{labels}` (exactly these labels) in a text exposition; 0 if none. */
export function sampleValue(text: string, name: string, labels: Record<string, string>): number {
  const wanted = Object.entries(labels)
    .map(([key, value]) => `${key}="${value}"`)
    .toSorted()
    .join(',');
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)\{(.*)\} (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    // split between labels only: a label's value may hold a comma
    const have = match[2]!
      .split(/,(?=\w+=")/)
      .toSorted()
      .join(',');
    if (have === wanted) return Number(match[3]);
  }
  return 0;
}
