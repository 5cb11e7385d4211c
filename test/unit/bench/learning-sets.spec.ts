// The learning benchmark's set files (bench/decision/data/learning/) keep the shape its learning
// curve relies on: 20 learned and some held out per route, every item where a reader expects it.
import { describe, expect, it } from '@jest/globals';
import {
  isConversationSet,
  itemsOf,
  learningSets,
  MIN_PER_ROUTE,
  problemsOf,
} from '../../../bench/decision/lib/learning-sets.js';

const routes = [
  { name: 'a', description: 'first' },
  { name: 'b', description: 'second' },
];
const texts = (prefix: string, n = MIN_PER_ROUTE) =>
  Array.from({ length: n }, (_, i) => `${prefix} ${i}`);
const turns = (text: string) => [
  { role: 'user', content: text },
  { role: 'assistant', content: 'Shall I do that?' },
  { role: 'user', content: 'yes please' },
];

describe('learning set files', () => {
  const sets = learningSets();

  it('are all loaded, each with a distinct name, single-turn and conversation sets both present', () => {
    expect(sets.length).toBeGreaterThanOrEqual(5);
    expect(new Set(sets.map((set) => set.name)).size).toBe(sets.length);
    expect(sets.some(isConversationSet)).toBe(true);
    expect(sets.some((set) => !isConversationSet(set))).toBe(true);
  });

  it.each(sets.map((set) => [set.name, set] as const))(
    '%s has the shape the bench needs',
    (_, set) => {
      expect(problemsOf(set)).toEqual([]);
      const items = itemsOf(set, false);
      expect(items).toHaveLength(set.routes.length);
      for (const [r, route] of set.routes.entries()) {
        expect(items[r]!.every((item) => item.route === route.name)).toBe(true);
        expect(items[r]!.at(-1)!.messages.at(-1)!.role).toBe('user');
      }
    },
  );
});

describe('problemsOf', () => {
  const good = { name: 'ok', about: '', routes, messages: { a: texts('x'), b: texts('y') } };

  it('accepts a well-formed set of messages and one of conversations', () => {
    expect(problemsOf(good)).toEqual([]);
    const conversations = { a: texts('x').map(turns), b: texts('y').map(turns) };
    expect(problemsOf({ name: 'c', about: '', routes, conversations })).toEqual([]);
  });

  it('names what is wrong', () => {
    expect(problemsOf({ ...good, routes: routes.slice(0, 1) })).toEqual(['fewer than 2 routes']);
    expect(problemsOf({ ...good, messages: { a: texts('x'), b: texts('y', 24) } })).toEqual([
      `b: fewer than ${MIN_PER_ROUTE}`,
    ]);
    expect(
      problemsOf({ ...good, messages: { a: texts('x'), b: [...texts('y', 25), 'X 3'] } }),
    ).toEqual(['b: duplicate "X 3"']);
    expect(problemsOf({ ...good, messages: { ...good.messages, c: texts('z') } })).toEqual([
      'c: not one of the routes',
    ]);
    expect(problemsOf({ ...good, conversations: {} })).toEqual([
      'needs either messages or conversations',
    ]);
  });

  it('wants conversations that alternate and end with the user', () => {
    const endsWithAssistant = turns('x 0').slice(0, 2);
    const conversations = {
      a: [endsWithAssistant, ...texts('x').slice(1).map(turns)],
      b: texts('y').map(turns),
    };
    expect(problemsOf({ name: 'c', about: '', routes, conversations })).toEqual([
      `a: does not end with a user turn: ${JSON.stringify(endsWithAssistant)}`,
    ]);
    const twoUsers = [turns('x 0')[0], ...turns('x 0')];
    conversations.a[0] = twoUsers;
    expect(problemsOf({ name: 'c', about: '', routes, conversations })[0]).toMatch(
      /^a: turn 2: wrong role/,
    );
  });
});
