import type { ChoiceOption } from '../core/decision/decision-model.js';
import { type ArchetypeMeans, messageMean } from './archetype-means.js';
import { isCatchAll } from './catch-all.js';
import type { DecisionFeatures } from './decision-features.js';
import type { IntentArchetype } from './intent-corpus.js';
import { type BorrowedVocabulary, borrowedVocabulary } from './lexical-overlap.js';
import { cosine, normalized, weightedSum } from '../core/decision/models/similarity-scoring.js';

/**
 * Matches a question's options to the archetypes of the intent corpus, so that an option with
 * few examples (or none) can borrow an archetype's messages. Each archetype goes to at most one
 * option, the closest (two routes cannot share a borrowed meaning), and only when the option's
 * name, description and examples are at least `minSimilarity` close to the archetype (its
 * keywords and the mean of its messages, counting alike: keywords alone let "council tax" match
 * HR), when it is the option's closest archetype, and clearly so: by `margin` more than the
 * archetype is to any other option. An archetype between two routes goes to neither: one that
 * does not fit pulls a route's messages away from it (issue 15: on domains no archetype
 * covers, borrowing lost 8–12 points).
 * A catch-all option (see catch-all.ts) is defined by what the others are not: it borrows the
 * generic archetypes (small talk, trivia, questions about the company) that no other option took,
 * so that what no specific route claims has somewhere to go.
 */
export class ArchetypeMatcher {
  private keys: ArchetypeKeys | undefined;
  private readonly borrowed = new Map<number, BorrowedMessages>();
  private readonly generic = new Map<string, BorrowedMessages>();

  /**
   * @param topicSpace what the topic vectors of `featuresOf` depend on (the embedder): matchers
   *   of one corpus and topic space share the archetypes' keys, whose computation reads every
   *   corpus message (≈ 30 ms in a fresh process), so a second model in the process does not pay
   *   it again.
   * @param means the precomputed means of the archetypes' messages in that space, where known
   *   (archetype-means.ts): then the first model does not pay it either.
   */
  constructor(
    private readonly archetypes: readonly IntentArchetype[],
    private readonly featuresOf: (text: string) => DecisionFeatures,
    private readonly topicSpace: object = {},
    private readonly means?: ArchetypeMeans,
  ) {}

  /** Per option: the messages it borrows, or undefined. */
  borrow(
    options: readonly ChoiceOption[],
    minSimilarity: number,
    margin = 0,
  ): (BorrowedMessages | undefined)[] {
    const assigned = this.assign(options, minSimilarity, margin);
    return options.map((option, i) => {
      const archetype = assigned[i];
      if (archetype !== undefined) return this.messages(archetype);
      return isCatchAll(option) ? this.genericMessages(assigned) : undefined;
    });
  }

  /** Per option: the name of the archetype it matches, or undefined. */
  matches(
    options: readonly ChoiceOption[],
    minSimilarity: number,
    margin = 0,
  ): (string | undefined)[] {
    return this.assign(options, minSimilarity, margin).map((archetype) =>
      archetype === undefined ? undefined : this.archetypes[archetype]!.name,
    );
  }

  /** Closest clear pairs first, each option and each archetype used once. */
  private assign(
    options: readonly ChoiceOption[],
    minSimilarity: number,
    margin: number,
  ): (number | undefined)[] {
    const { keys, messageMeans } = this.archetypeKeys();
    const specific = options.map((option) => !isCatchAll(option));
    const routes = options.map(routeOf);
    const topics = options.map((option, i) => (specific[i] ? this.optionTopic(option) : undefined));
    const raw = topics.map((topic) => (topic ? keys.map((key) => cosine(topic, key)) : []));
    const style = this.splitsByStyle(raw);
    // Only archetypes of the router's kind are candidates: a simple/complex split's `complex`
    // route ("proofs, algorithms, multi-step reasoning") is closer to math than to complex
    // requests, but its router divides requests by how hard they are, not by topic.
    const similarity = raw.map((row) =>
      row.map((value, a) => (this.archetypes[a]!.style === style ? value : -Infinity)),
    );
    const contrast = style ? similarity.map(contrasted) : similarity;
    const pairs: { option: number; archetype: number; similarity: number }[] = [];
    similarity.forEach((row, option) => {
      row.forEach((value, archetype) => {
        if (value < minSimilarity) return;
        // Close to the archetype's keywords alone is not enough: its messages must be about
        // something like the route too (a corpus whose 'billing' messages are about cats).
        if (cosine(topics[option]!, messageMeans[archetype]!) < MIN_MESSAGE_SIMILARITY) return;
        // An archetype about as close to another route belongs to neither: borrowing would
        // pull one route's messages to the other. Options of one route (`complex#1`,
        // `complex#2`: its descriptions) are no rivals: what either borrows goes to the route.
        const rival = Math.max(
          -1,
          ...contrast.flatMap((other, j) =>
            routes[j] !== routes[option] && specific[j] ? [other[archetype]!] : [],
          ),
        );
        if (contrast[option]![archetype]! - rival < margin) return;
        // Only the option's own closest archetype: when it is taken, a second choice left over
        // would fit worse (the car desk's servicing route took shipping).
        if (row.some((other) => other > value)) return;
        pairs.push({ option, archetype, similarity: value });
      });
    });
    pairs.sort((a, b) => b.similarity - a.similarity);
    const chosen: (number | undefined)[] = options.map(() => undefined);
    const taken = new Set<number>();
    for (const { option, archetype } of pairs) {
      if (chosen[option] !== undefined || taken.has(archetype)) continue;
      chosen[option] = archetype;
      taken.add(archetype);
    }
    return chosen;
  }

  /**
   * Whether the router divides requests by style (simple / complex) rather than by topic: when
   * its specific options are on average closer to their closest style archetype than to their
   * closest topic archetype. The topic archetypes are many more, so style wins only when it fits
   * clearly (a council desk's `planning` route, closest to complex requests, does not make the
   * desk a style split).
   */
  private splitsByStyle(similarity: readonly (readonly number[])[]): boolean {
    let style = 0;
    let topic = 0;
    for (const row of similarity) {
      if (row.length === 0) continue;
      let bestStyle = -1;
      let bestTopic = -1;
      row.forEach((value, a) => {
        if (this.archetypes[a]!.style) bestStyle = Math.max(bestStyle, value);
        else bestTopic = Math.max(bestTopic, value);
      });
      style += bestStyle;
      topic += bestTopic;
    }
    return style > topic;
  }

  private archetypeKeys(): ArchetypeKeys {
    if (this.keys) return this.keys;
    let byCorpus = sharedKeys.get(this.topicSpace);
    if (!byCorpus) sharedKeys.set(this.topicSpace, (byCorpus = new WeakMap()));
    let keys = byCorpus.get(this.archetypes);
    if (!keys) {
      const messageMeans = this.archetypes.map((archetype) =>
        normalized(
          this.means?.(archetype) ??
            messageMean(archetype.messages, (message) => this.featuresOf(message).topic),
        ),
      );
      keys = {
        keys: this.archetypes.map((archetype, a) =>
          unitSum([
            this.featuresOf(`${archetype.name.replaceAll('-', ' ')}: ${archetype.description}`)
              .topic,
            messageMeans[a]!,
          ]),
        ),
        messageMeans,
      };
      byCorpus.set(this.archetypes, keys);
    }
    this.keys = keys;
    return keys;
  }

  /** What the option is about: its name, its description and its examples, each counting alike. */
  private optionTopic(option: ChoiceOption): Float64Array {
    const name = routeOf(option).replace(/[-_.]+/g, ' ');
    const parts = [this.featuresOf(name).topic, this.featuresOf(option.description).topic];
    const examples = (option.examples ?? []).map((example) => this.featuresOf(example).topic);
    if (examples.length > 0) parts.push(unitSum(examples));
    return unitSum(parts);
  }

  /** The messages of the generic archetypes that no option was assigned. */
  private genericMessages(assigned: readonly (number | undefined)[]): BorrowedMessages {
    const free = this.archetypes.flatMap((archetype, i) =>
      archetype.generic && !assigned.includes(i) ? [i] : [],
    );
    const key = free.join(',');
    let messages = this.generic.get(key);
    if (!messages) {
      messages = this.borrowedFrom(free.flatMap((i) => this.archetypes[i]!.messages));
      this.generic.set(key, messages);
    }
    return messages;
  }

  private messages(archetype: number): BorrowedMessages {
    let messages = this.borrowed.get(archetype);
    if (!messages) {
      messages = this.borrowedFrom(this.archetypes[archetype]!.messages);
      this.borrowed.set(archetype, messages);
    }
    return messages;
  }

  private borrowedFrom(texts: readonly string[]): BorrowedMessages {
    return {
      features: texts.map((text) => this.featuresOf(text)).filter((f) => !f.empty),
      vocabulary: borrowedVocabulary(texts),
    };
  }
}

/** What an option borrows from the corpus: the messages' features, and the words they use often. */
export interface BorrowedMessages {
  readonly features: readonly DecisionFeatures[];
  readonly vocabulary: BorrowedVocabulary;
}

/** The route an option stands for: `route#2` is the second description of `route`. */
const routeOf = (option: ChoiceOption): string => option.name.replace(/#\d+$/, '');

/**
 * Per archetype: the key a route is matched by (its keywords and the mean of its messages,
 * counting alike), and that unit mean alone.
 */
interface ArchetypeKeys {
  readonly keys: readonly Float64Array[];
  readonly messageMeans: readonly Float64Array[];
}

/** Archetype keys per topic space and corpus (see the constructor). */
const sharedKeys = new WeakMap<object, WeakMap<readonly IntentArchetype[], ArchetypeKeys>>();

/**
 * How close (cosine) a route must be to the mean of an archetype's messages, whatever its
 * closeness to the archetype's keywords: the routes the shipped corpus matches are 0.43 (math:
 * numbers say little to word vectors) to 0.9 from theirs, a billing route 0.004 from a corpus's
 * 'billing' archetype whose messages are about cats.
 */
const MIN_MESSAGE_SIMILARITY = 0.25;

/**
 * A row of similarities to the style archetypes, less their mean: those archetypes share every
 * topic and differ only in how requests are asked, so a route's raw closeness to each differs
 * little (the README's `simple` route is 0.88 from simple and 0.77 from complex requests); which
 * of them it leans to is what the margin must weigh.
 */
function contrasted(row: readonly number[]): number[] {
  const finite = row.filter(Number.isFinite);
  const mean = finite.reduce((a, b) => a + b, 0) / Math.max(1, finite.length);
  return row.map((value) => value - mean);
}

const unitSum = (vectors: readonly Float64Array[]): Float64Array =>
  normalized(weightedSum(vectors.map((vector) => ({ vector, weight: 1 }))));
