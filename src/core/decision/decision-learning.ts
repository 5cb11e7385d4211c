import type { Clock } from '../clock.js';
import { InvalidConfigurationException } from '../errors/exceptions.js';
import type { RouteStateStore } from '../state/route-state-store.js';
import type { ChoiceOptions } from './choice-options.js';
import { DecisionFeedbackException, type DecisionFeedbackOptions } from './decision-feedback.js';
import type { ChoiceQuestion, DecisionInput, DecisionModel } from './decision-model.js';
import { DecisionRecords, type DecisionRecordsOptions } from './decision-records.js';
import {
  LearnedExamples,
  type LearnedExample,
  type LearnedExamplesOptions,
} from './learned-examples.js';

/** A labelled input to learn at start-up (a line of a `learned` JSON Lines file). */
export interface LabelledInput {
  input: DecisionInput;
  route: string;
}

export interface DecisionLearningOptions {
  clock: Clock;
  decisions?: DecisionRecordsOptions;
  learning?: LearnedExamplesOptions;
  /** Routes from the cheapest to the most capable: where `quality: 'bad'` feedback sends an input. */
  capabilityOrder?: readonly string[];
  /** Examples learned at start-up, in this process only (not written to the store). */
  learned?: readonly LabelledInput[];
}

/**
 * What a decision router remembers to learn from its traffic: the recent decisions (for
 * feedback), the learned examples (shared through the route state store) and the question they
 * are examples for. The router decides; this part takes feedback.
 */
export class DecisionLearning {
  readonly records: DecisionRecords;
  readonly examples: LearnedExamples;
  private readonly capabilityOrder: readonly string[] | undefined;
  private readonly initial: readonly LabelledInput[];
  /** Every route's options, set when the router is validated with its routes. */
  private choice: ChoiceOptions | undefined;
  private question: ChoiceQuestion | undefined;

  constructor(
    private readonly model: DecisionModel,
    options: DecisionLearningOptions,
  ) {
    checkPositive(options.decisions?.windowMs, 'decisions.windowMs');
    checkPositive(options.decisions?.maxRecords, 'decisions.maxRecords');
    checkPositive(options.learning?.maxPerRoute, 'learning.maxPerRoute');
    checkPositive(options.learning?.syncIntervalMs, 'learning.syncIntervalMs');
    const share = options.learning?.maxSourceShare;
    if (share !== undefined && !(typeof share === 'number' && share > 0 && share <= 1)) {
      throw new InvalidConfigurationException(
        `learning.maxSourceShare must be a share above 0 and at most 1 (got ${String(share)})`,
      );
    }
    if (
      options.capabilityOrder !== undefined &&
      (!Array.isArray(options.capabilityOrder) ||
        options.capabilityOrder.some((r) => typeof r !== 'string'))
    ) {
      throw new InvalidConfigurationException(
        'capabilityOrder must be a list of route names, from the cheapest to the most capable',
      );
    }
    this.records = new DecisionRecords(options.clock, options.decisions);
    this.examples = new LearnedExamples(options.clock, options.learning);
    this.capabilityOrder = options.capabilityOrder;
    this.initial = options.learned ?? [];
  }

  /** The routes are known: checks the names given, teaches the start-up examples. */
  setRoutes(choice: ChoiceOptions, question: ChoiceQuestion): void {
    this.choice = choice;
    this.question = question;
    for (const route of this.capabilityOrder ?? []) {
      if (!choice.routeNames.includes(route)) throw unknownRoute(route, choice, 'capabilityOrder');
    }
    for (const [i, example] of this.initial.entries()) {
      if (!choice.routeNames.includes(example.route)) {
        throw unknownRoute(example.route, choice, `learned[${i}].route`);
      }
      // the embedded model learns synchronously; an async one is not waited for at start-up
      void this.model.learn?.({
        input: example.input,
        question,
        route: this.optionOf(example.route),
      });
    }
  }

  bind(store: RouteStateStore, scope: string): void {
    this.examples.bind(store, scope);
    if (this.question) void this.sync().catch(() => undefined);
  }

  /** Reads what other replicas (or an earlier run) learned; resolves when the model knows it. */
  sync(): Promise<void> {
    if (!this.question || !this.choice) return Promise.resolve();
    return this.examples.sync(this.optionNames(), this.question, this.model);
  }

  /** Called on each decision: re-reads the store now and then, without waiting for it. */
  syncSoon(): void {
    if (this.question && this.choice) {
      this.examples.syncSoon(this.optionNames(), this.question, this.model);
    }
  }

  /** Learns `input` as an example of `route` (a teacher's answer, feedback). */
  learn(
    input: DecisionInput,
    route: string,
    fallback: { choice: ChoiceOptions; question: ChoiceQuestion },
    source?: { source?: string; trusted?: boolean; scope?: string },
  ): Promise<void> {
    const choice = this.choice ?? fallback.choice;
    const question = this.question ?? fallback.question;
    return this.examples.add(
      { route: this.optionOf(route, choice), input, ...source },
      question,
      this.model,
    );
  }

  /** Applies feedback on a recorded decision; see DecisionModelChatModelRouter.feedback. */
  async feedback(
    decisionId: string,
    route: string | undefined,
    options: DecisionFeedbackOptions,
  ): Promise<void> {
    const record = typeof decisionId === 'string' ? this.records.get(decisionId) : undefined;
    // another caller's decision reads as unknown: its existence is not revealed
    if (!record || (options.caller !== record.caller && !options.trusted)) {
      throw new DecisionFeedbackException(
        'unknown-decision',
        'Unknown or expired decision id: feedback is taken for ' +
          `${Math.round(this.records.windowMs / 60_000)} min after a call, from the caller that made it`,
      );
    }
    const target = this.targetOf(record, route, options);
    if (target === undefined) return; // `bad` on the most capable route: nowhere higher to go
    if (record.feedback === target) return; // the same feedback again: learned once
    if (record.feedback !== undefined) {
      throw new DecisionFeedbackException(
        'conflict',
        `This decision already received feedback naming route '${record.feedback}'`,
      );
    }
    const trusted = options.trusted === true || options.caller === undefined;
    // an untrusted caller's feedback moves its own decisions only, never another tenant's
    // set before the write, so a concurrent copy of this feedback is not learned twice
    record.feedback = target;
    try {
      await this.learn(record.input, target, record, {
        ...(options.caller !== undefined ? { source: options.caller } : {}),
        ...(trusted ? {} : { scope: options.caller }),
        trusted,
      });
    } catch (error) {
      record.feedback = undefined;
      throw error;
    }
  }

  /** Learned examples per option (every option of the routes, 0 where none). */
  counts(): Record<string, number> {
    const counts = this.examples.counts();
    const names = this.choice ? this.optionNames() : Object.keys(counts);
    return Object.fromEntries(names.map((name) => [name, counts[name] ?? 0]));
  }

  exportExamples(): Record<string, LearnedExample[]> {
    return this.examples.export();
  }

  /** The route feedback names, or for `bad` without a route the next more capable one. */
  private targetOf(
    record: { route: string; routes: readonly string[] },
    route: string | undefined,
    options: DecisionFeedbackOptions,
  ): string | undefined {
    if (options.quality !== undefined && options.quality !== 'good' && options.quality !== 'bad') {
      throw new DecisionFeedbackException('invalid', "quality must be 'good' or 'bad'");
    }
    if (route !== undefined) {
      if (typeof route !== 'string' || !record.routes.includes(route)) {
        throw new DecisionFeedbackException(
          'unknown-route',
          `Unknown route '${String(route)}'; this decision's routes: ${record.routes.join(', ')}`,
        );
      }
      return route;
    }
    if (options.quality !== 'bad') return record.route;
    const order = this.capabilityOrder;
    if (!order) {
      throw new DecisionFeedbackException(
        'invalid',
        "quality 'bad' without a route needs the router's capabilityOrder (cheapest route first); name the route instead",
      );
    }
    const at = order.indexOf(record.route);
    return order.slice(at + 1).find((name) => record.routes.includes(name));
  }

  private optionNames(): string[] {
    return this.choice!.options.map((option) => option.name);
  }

  /** A route's first option (the route itself, or `route#1` with several descriptions). */
  private optionOf(route: string, choice = this.choice): string {
    const option = choice?.options.find((o) => choice.routeOf.get(o.name) === route);
    return option?.name ?? route;
  }
}

function checkPositive(value: unknown, field: string): void {
  if (value !== undefined && !(typeof value === 'number' && value > 0)) {
    throw new InvalidConfigurationException(
      `${field} must be a positive number (got ${String(value)})`,
    );
  }
}

function unknownRoute(route: string, choice: ChoiceOptions, field: string): Error {
  return new InvalidConfigurationException(
    `${field}: unknown route '${route}'; routes: ${choice.routeNames.join(', ')}`,
  );
}
