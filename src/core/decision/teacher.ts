import { InvalidConfigurationException } from '../errors/exceptions.js';
import type { DecisionModel } from './decision-model.js';
import type { ScoredAnswer } from './answer-scoring.js';

/** How often a decision router asked its teacher. */
export interface TeacherStats {
  /** Decisions the first model made (each one counted once). */
  decisions: number;
  /** Of those, how many the teacher was asked about. */
  taught: number;
  /** `taught / decisions` (0 before the first decision). */
  share: number;
  /** The share among the latest `recent` decisions (up to 100). */
  recentShare: number;
  recent: number;
}

const RECENT = 100;

/**
 * A second decision model asked only when the first one is unsure (its best route's probability
 * is below `teachBelow`, or it reports none). Its answer routes the call and is learned, so the
 * first model asks it less and less. Counts how often it was asked.
 */
export class Teacher {
  private decisions = 0;
  private taught = 0;
  /** The latest decisions, true where the teacher was asked (a ring of RECENT). */
  private readonly ring: boolean[] = [];
  private next = 0;

  constructor(
    readonly model: DecisionModel,
    readonly teachBelow: number,
  ) {
    if (typeof model?.decide !== 'function') {
      throw new InvalidConfigurationException(
        'teacher must be a decision model (an object with decide(request))',
      );
    }
    if (typeof teachBelow !== 'number' || !(teachBelow > 0 && teachBelow <= 1)) {
      throw new InvalidConfigurationException(
        `teachBelow must be a probability above 0 and at most 1 (got ${String(teachBelow)}); ` +
          'the teacher is asked when the best route is less likely than that',
      );
    }
  }

  /** Whether the first model's answer is unsure enough to ask; counts the decision. */
  shouldAsk(scored: ScoredAnswer): boolean {
    const best = scored.probabilities?.[scored.route];
    const ask = best === undefined || best < this.teachBelow;
    this.decisions++;
    if (ask) this.taught++;
    this.ring[this.next] = ask;
    this.next = (this.next + 1) % RECENT;
    return ask;
  }

  stats(): TeacherStats {
    const recent = this.ring.length;
    const recentTaught = this.ring.filter(Boolean).length;
    return {
      decisions: this.decisions,
      taught: this.taught,
      share: this.decisions === 0 ? 0 : this.taught / this.decisions,
      recentShare: recent === 0 ? 0 : recentTaught / recent,
      recent,
    };
  }
}
