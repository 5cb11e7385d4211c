import type { ChoiceOption } from '../core/decision/decision-model.js';

/**
 * What is kept per question (the fitted classifier), found again without hashing its texts: the
 * router builds new option objects on every request, but their strings are the routes' own, so
 * the key is short (names and text lengths) and a hit is confirmed by comparing the texts, which
 * for the very same strings is a pointer comparison. Bounded; when full, the oldest goes first.
 */
export class QuestionCache<V> {
  private readonly buckets = new Map<string, { texts: string[]; value: V }[]>();
  private count = 0;

  constructor(private readonly maxEntries: number) {}

  get(options: readonly ChoiceOption[], create: () => V): V {
    const key = shortKey(options);
    const bucket = this.buckets.get(key);
    if (bucket) {
      for (const entry of bucket) if (sameTexts(entry.texts, options)) return entry.value;
    }
    const value = create();
    if (this.count >= this.maxEntries) this.evictOldest();
    const entry = { texts: textsOf(options), value };
    if (bucket) bucket.push(entry);
    else this.buckets.set(key, [entry]);
    this.count++;
    return value;
  }

  get size(): number {
    return this.count;
  }

  private evictOldest(): void {
    const [key, bucket] = this.buckets.entries().next().value!;
    bucket.shift();
    this.count--;
    if (bucket.length === 0) this.buckets.delete(key);
  }
}

function shortKey(options: readonly ChoiceOption[]): string {
  let key = '';
  for (const option of options) {
    const examples = option.examples ?? [];
    let length = 0;
    for (const example of examples) length += example.length;
    key += `${option.name}\u0000${option.description.length}\u0000${examples.length}\u0000${length}\u0001`;
  }
  return key;
}

/** Names, descriptions and examples in order, with each option's example count between them. */
function textsOf(options: readonly ChoiceOption[]): string[] {
  const texts: string[] = [];
  for (const option of options) {
    const examples = option.examples ?? [];
    texts.push(option.name, option.description, String(examples.length), ...examples);
  }
  return texts;
}

function sameTexts(texts: readonly string[], options: readonly ChoiceOption[]): boolean {
  let i = 0;
  for (const option of options) {
    const examples = option.examples ?? [];
    if (texts[i++] !== option.name || texts[i++] !== option.description) return false;
    if (texts[i++] !== String(examples.length)) return false;
    for (const example of examples) if (texts[i++] !== example) return false;
  }
  return i === texts.length;
}
