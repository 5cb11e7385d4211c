/**
 * What the learned-example labs (learning-tuning.ts, learning-variants.ts) share: the development
 * sets and the garden centre read as labelled inputs, each input's reading and zero-shot answer
 * computed once, so that a grid of scorings costs little.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChoiceOption, DecisionInput } from '../../../src/core/decision/decision-model.js';
import { EmbeddedVectorDecisionModel } from '../../../src/embedded/embedded-vector-decision-model.js';
import { logProbabilities } from '../../../src/embedded/learned-evidence.js';
import { casesOf, evaluationSets, withoutExamples } from './decision-eval.js';
import { gardenCentre } from './learning-sets.js';

export interface Item {
  route: string;
  input: DecisionInput;
}
export interface LabSet {
  name: string;
  conversations: boolean;
  options: ChoiceOption[];
  items: Item[];
}

/** What the lab needs of a model's internals: its reading of an input and its zero-shot logits. */
export class Lab extends EmbeddedVectorDecisionModel {
  prepared(options: ChoiceOption[], input: DecisionInput) {
    const reading = this.read(input);
    const { logits, temperature } = this.zeroShot(options, reading);
    return { reading, prior: logProbabilities(logits, temperature) };
  }
}

const FOLLOW_UPS = ['yes please', 'ok go ahead', 'sure, do that', 'yes', 'please do', 'go on then'];
export const conversation = (text: string, i: number): DecisionInput => ({
  messages: [
    { role: 'user', text },
    { role: 'assistant', text: 'Happy to help with that. Shall I go ahead?' },
    { role: 'user', text: FOLLOW_UPS[i % FOLLOW_UPS.length]! },
  ],
});

export interface LearningJson {
  name?: string;
  routes: { name: string; description: string }[];
  messages?: Record<string, string[]>;
  conversations?: Record<string, { role: string; content: string }[][]>;
}

/** A set in the learning format (garden-centre.json), round-robin so that each route's first come first. */
export function learningSet(json: LearningJson, setName: string, asConversations: boolean): LabSet {
  const options = json.routes.map(({ name, description }) => ({ name, description }));
  const items: Item[] = [];
  for (const route of json.routes) {
    if (json.conversations) {
      for (const turns of json.conversations[route.name] ?? []) {
        const messages = turns
          .filter((m) => m.role === 'user' || m.role === 'assistant')
          .map((m) => ({ role: m.role as 'user' | 'assistant', text: m.content }));
        // as the router reads it: the last 3 turns up to the last user message
        items.push({ route: route.name, input: { messages: messages.slice(-3) } });
      }
    } else {
      (json.messages?.[route.name] ?? []).forEach((text, i) =>
        items.push({ route: route.name, input: asConversations ? conversation(text, i) : text }),
      );
    }
  }
  return { name: setName, conversations: asConversations || !!json.conversations, options, items };
}

export function devSets(): LabSet[] {
  const sets: LabSet[] = [];
  // a set without examples, and one already listed with descriptions only, would count twice
  const seen = new Set<string>();
  for (const set of evaluationSets().filter((s) => !s.name.includes('blind'))) {
    for (const variant of [set, withoutExamples(set)]) {
      const cases = casesOf(variant);
      const key = JSON.stringify([variant.routes, variant.items]);
      if (seen.has(key)) continue;
      seen.add(key);
      sets.push({
        name: variant.name,
        conversations: cases.some(
          (c) => typeof c.input !== 'string' && c.input.messages.length > 1,
        ),
        options: cases[0]!.choice.options,
        items: cases.map((c) => ({ route: c.expected, input: c.input })),
      });
    }
  }
  const garden = gardenCentre() as LearningJson;
  sets.push(learningSet(garden, 'garden-centre', false));
  sets.push(learningSet(garden, 'garden-centre conversations', true));
  return sets;
}

export function extraSets(dir: string): LabSet[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .map((file) => {
      const json = JSON.parse(readFileSync(join(dir, file), 'utf8')) as LearningJson;
      return learningSet(json, file, false);
    });
}

export interface Prepared {
  set: LabSet;
  rows: { route: number; reading: ReturnType<Lab['prepared']>['reading']; prior: Float64Array }[];
}

export function prepare(set: LabSet): Prepared {
  const lab = new Lab();
  const index = new Map(set.options.map((o, i) => [o.name, i]));
  return {
    set,
    rows: set.items.map((item) => ({
      route: index.get(item.route)!,
      ...lab.prepared(set.options, item.input),
    })),
  };
}
