import { describe, expect, it } from '@jest/globals';
import { fitBlend, type BlendRow } from '../../../src/embedded/evidence-blend.js';
import { LearnedEvidence, logProbabilities } from '../../../src/embedded/learned-evidence.js';
import { LEARNED_SCORING } from '../../../src/embedded/learned-options.js';
import { namesNoTopic, termBag } from '../../../src/embedded/learned-terms.js';
import { seededRandom } from '../../../bench/lib/seeded-random.js';

describe('fitBlend', () => {
  // two options, three sources: source 1 always favours the right option, source 0 and 2 are noise
  const random = seededRandom(3);
  const rows: BlendRow[] = Array.from({ length: 200 }, (_, n) => {
    const label = n % 2;
    const scores = new Float64Array(6);
    for (let i = 0; i < 2; i++) {
      scores[i] = random() - 0.5;
      scores[2 + i] = (i === label ? 1 : -1) * (0.5 + random());
      scores[4 + i] = 2 * (random() - 0.5);
    }
    return { scores, label };
  });

  it('trusts the source that tells the options apart, and less the noise', () => {
    const [prior, topic, words] = fitBlend(rows, 3, 2, 0.01);
    expect(topic).toBeGreaterThan(2);
    expect(prior).toBeLessThan(topic! / 4);
    expect(words).toBeLessThan(topic! / 4);
  });

  it('with biases, corrects a prior that leans towards one option', () => {
    // the prior always says option 0 by 1 nat; half the labels are option 1
    const leaning: BlendRow[] = Array.from({ length: 100 }, (_, n) => ({
      scores: Float64Array.from([0, -1, 0, 0, 0, 0]),
      label: n % 2,
    }));
    const fitted = fitBlend(leaning, 3, 2, 1, 0.1);
    expect(fitted.length).toBe(5);
    // the prior's 1-nat lean is undone by the biases (and a smaller prior weight)
    const lean = fitted[0]! * 1 + fitted[3]! - fitted[4]!;
    expect(Math.abs(lean)).toBeLessThan(0.1);
  });

  it('stays at 1 without rows, and near it with a few under a firm penalty', () => {
    expect(Array.from(fitBlend([], 3, 2, 1))).toEqual([1, 1, 1]);
    for (const weight of fitBlend(rows.slice(0, 4), 3, 2, 1000)) {
      expect(Math.abs(weight - 1)).toBeLessThan(0.05);
    }
  });
});

describe('termBag', () => {
  const turns = [
    { text: 'my standing order to the landlord bounced', weight: 0.5 },
    { text: 'Shall I set it up again?', weight: 0.25 },
    { text: 'yes please', weight: 1 },
  ];

  it('reads stems and pairs; a last message that names no topic adds nothing', () => {
    expect(namesNoTopic('yes please')).toBe(true);
    expect(namesNoTopic('ok, go ahead')).toBe(true);
    expect(namesNoTopic('and for my savings account?')).toBe(false);
    const bag = termBag(turns, true);
    expect(bag.has('yes')).toBe(false);
    expect(bag.get('stand order')).toBeGreaterThan(0);
    // the earlier turns count fully when the last one is a follow-up
    expect(bag.get('landlord')).toBe(1);
    expect(termBag(turns, false).get('yes')).toBe(1);
  });
});

describe('LearnedEvidence', () => {
  const topic = (...values: number[]) => Float64Array.from(values);
  const point = (t: Float64Array, text: string, prior?: number[]) => ({
    text,
    topic: t,
    terms: termBag([{ text, weight: 1 }], false),
    ...(prior ? { prior: Float64Array.from(prior) } : {}),
  });

  it('moves a flat prior towards the option whose examples the input resembles', () => {
    const sets = [
      [point(topic(1, 0), 'block my lost card'), point(topic(0.9, 0.1), 'card stolen')],
      [point(topic(0, 1), 'mortgage rates'), point(topic(0.1, 0.9), 'loan repayment holiday')],
    ];
    const evidence = new LearnedEvidence(sets, 4, { ...LEARNED_SCORING, blendPenalty: Infinity });
    const prior = logProbabilities(Float64Array.from([0, 0]), 1);
    const scores = evidence.addScores(
      topic(0.95, 0.05),
      termBag([{ text: 'my card was stolen', weight: 1 }], false),
      prior,
    );
    expect(scores[0]!).toBeGreaterThan(scores[1]!);
    // a taught input goes where it was taught, against its topic
    const taught = evidence.addScores(
      topic(1, 0),
      termBag([{ text: 'mortgage rates', weight: 1 }], false),
      logProbabilities(Float64Array.from([0, 0]), 1),
      'mortgage rates',
    );
    expect(taught[1]!).toBeGreaterThan(taught[0]! + 2);
  });

  it('weighs the evidence more with more examples per option', () => {
    const one = [[point(topic(1, 0), 'card')], [point(topic(0, 1), 'loan')]];
    const many = one.map((set) => Array.from({ length: 20 }, () => set[0]!));
    const margin = (sets: typeof one, learned: number) => {
      const evidence = new LearnedEvidence(sets, learned, {
        ...LEARNED_SCORING,
        blendPenalty: Infinity,
      });
      const out = evidence.addScores(topic(1, 0), new Map(), Float64Array.from([0, 0]));
      return out[0]! - out[1]!;
    };
    expect(margin(many, 40)).toBeGreaterThan(2 * margin(one, 2));
  });

  it('fits per-option biases only when every option was taught', () => {
    const taught = (t: Float64Array, text: string) => point(t, text, [0, 0]);
    const loans = [
      taught(topic(0, 1), 'mortgage rates'),
      taught(topic(0.1, 0.9), 'loan repayment holiday'),
      taught(topic(0.2, 0.8), 'remortgage my flat'),
    ];
    const cards = [taught(topic(1, 0), 'lost card'), taught(topic(0.9, 0.1), 'card stolen')];
    // feedback for one route only (quality: bad) says nothing of how often each route is right
    const oneSided = new LearnedEvidence(
      [[point(topic(1, 0), 'cards')], loans],
      3,
      LEARNED_SCORING,
    );
    expect(oneSided.blend.length).toBe(3);
    const both = new LearnedEvidence([cards, loans], 5, LEARNED_SCORING);
    expect(both.blend.length).toBe(5);
  });
});
