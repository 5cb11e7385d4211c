import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { InvalidConfigurationException } from '../core/errors/exceptions.js';
import { findAsset } from './word-vectors.js';

/**
 * The intent corpus shipped in `src/embedded/assets/` (built by `src/embedded/scripts/build-intent-corpus.mjs` from the
 * hand-written messages in `src/embedded/scripts/intent-corpus/`): short labelled messages for the route
 * archetypes routers are commonly built from.
 */
export const DEFAULT_INTENT_CORPUS_FILE = 'intent-corpus.json';

/** One archetype: keywords to match a route to it, and messages a route of its kind receives. */
export interface IntentArchetype {
  readonly name: string;
  readonly description: string;
  readonly messages: readonly string[];
  /** What a catch-all route (general, other) receives: small talk, trivia, company questions. */
  readonly generic: boolean;
  /**
   * How a request is asked (simple vs complex requests), not what it is about: its messages span
   * every topic, so only a router that splits by style borrows it (see archetype-matcher.ts).
   */
  readonly style: boolean;
}

const cache = new Map<string, readonly IntentArchetype[]>();

/** Reads and checks a corpus file once per process and path (the shipped one by default). */
export function loadIntentCorpus(path?: string): readonly IntentArchetype[] {
  const file =
    path === undefined
      ? findAsset(DEFAULT_INTENT_CORPUS_FILE, undefined, 'corpusPath')
      : resolve(path);
  let archetypes = cache.get(file);
  if (!archetypes) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new InvalidConfigurationException(
        `cannot read the intent corpus from '${file}' (corpusPath): ${(error as Error).message}`,
        { cause: error },
      );
    }
    archetypes = parseIntentCorpus(parsed, file);
    cache.set(file, archetypes);
  }
  return archetypes;
}

/** `{ archetypes: [{ name, description, messages: string[], generic?, style? }] }`, or a clear error. */
export function parseIntentCorpus(value: unknown, source = 'intent corpus'): IntentArchetype[] {
  const list = (value as { archetypes?: unknown } | null)?.archetypes;
  if (!Array.isArray(list)) {
    throw new InvalidConfigurationException(`${source}: expected { archetypes: [...] }`);
  }
  return list.map((entry: unknown, i) => {
    const { name, description, messages, generic, style } = (entry ?? {}) as Record<
      string,
      unknown
    >;
    const texts = Array.isArray(messages) ? messages : [];
    if (
      typeof name !== 'string' ||
      typeof description !== 'string' ||
      texts.length === 0 ||
      !texts.every((text) => typeof text === 'string')
    ) {
      throw new InvalidConfigurationException(
        `${source}: archetype ${i} needs a name, a description and a list of messages`,
      );
    }
    return {
      name,
      description,
      messages: texts as string[],
      generic: generic === true,
      style: style === true,
    };
  });
}
