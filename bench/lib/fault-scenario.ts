import { fakeAnswer, type Ask, type Outcome } from './fault-client.js';
import type { FaultUpstreams } from './fault-upstreams.js';
import { gradeAnswer, verdict, type Verdict } from './fault-verdicts.js';

export interface ScenarioContext {
  ask: (ask: Ask) => Promise<Outcome>;
  upstreams: FaultUpstreams;
  /** The gateway's origin, for its other endpoints. */
  origin: string;
}

/**
 * One fault, on a failover router of its own (`router`) whose models are `models`
 * (`name: [provider, upstream model id]`), so that scenarios run at once without sharing a
 * circuit, a learnt deadline or a fault counter.
 */
export interface Scenario {
  name: string;
  router: string;
  models: Record<string, [provider: string, id: string]>;
  /** Runs once every other scenario has ended (it looks at what they left behind). */
  last?: boolean;
  run(context: ScenarioContext): Promise<Verdict>;
}

/** A router `sNN` of models `sNN-<suffix>` on the given providers and upstream ids. */
export function group(
  router: string,
  members: Array<[suffix: string, provider: string, id: string]>,
): Pick<Scenario, 'router' | 'models'> {
  return {
    router,
    models: Object.fromEntries(
      members.map(([suffix, provider, id]) => [`${router}-${suffix}`, [provider, id]]),
    ),
  };
}

/**
 * After a caller's mistake on `router`: its first model `model` must answer the next call (a
 * plain one), not be cooling down. Safe when it does (the scenario's grade is the mistake's).
 */
export async function stillServes(
  ask: ScenarioContext['ask'],
  router: string,
  model: string,
): Promise<Verdict> {
  const after = await ask({ router, stream: false, limitMs: 30_000 });
  const next = gradeAnswer(after, [fakeAnswer(model), fakeAnswer(`${router}-b`)], QUICK_MS);
  if (next.grade !== 'pass') return next;
  if (after.model !== model) {
    return verdict('fail', `the model was blamed: the next call went to ${after.model}`);
  }
  return verdict('safe', next.detail);
}

/**
 * The bound of an answer or error that needs no waiting on a timeout (a retry, a failover): 1 s
 * on a quiet machine, 2–4 s on the shared 2-core one with every scenario running at once.
 */
export const QUICK_MS = 10_000;
