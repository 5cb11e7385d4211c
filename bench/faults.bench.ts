/**
 * The fault bench: what a caller of the demo gateway gets when its upstreams misbehave, with the
 * defaults (no resilience or breaker settings in the YAML). The gateway runs as `npm start` runs
 * it (the built app, in a process of its own); its upstreams are fault-injecting HTTP servers on
 * 127.0.0.1 in this process (the project's FakeProvider, and a raw server for wire faults it
 * does not play); the caller is the official `openai` client, streamed and not.
 *
 *   npm run bench -- faults
 *
 *   BENCH_FAULTS=s06,s07 npm run bench -- faults   (only those scenarios)
 *
 * Each scenario has a failover router of its own, so all of them run at once (about a minute,
 * the slowest being the model that takes 30 s to its first token). Grades (fault-verdicts.ts):
 * pass, safe, partial, fail; the tally is printed last.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ChildServer } from './lib/child-server.js';
import { faultClient } from './lib/fault-client.js';
import type { Scenario } from './lib/fault-scenario.js';
import { GROUP_FAULTS } from './lib/group-fault-scenarios.js';
import { UPSTREAM_FAULTS } from './lib/upstream-fault-scenarios.js';
import { ANSWER_FAULTS } from './lib/answer-fault-scenarios.js';
import { WIRE_FAULTS } from './lib/wire-fault-scenarios.js';
import { startFaultUpstreams, writeFaultConfig } from './lib/fault-upstreams.js';
import { verdict, type Grade, type Verdict } from './lib/fault-verdicts.js';
import { GATEWAY_ENV, GATEWAY_NODE_FLAGS } from './gateway.bench.js';

const here = dirname(fileURLToPath(import.meta.url));
/** Past this, a scenario that has not returned is a hang. */
const SCENARIO_LIMIT_MS = 180_000;

const SCENARIOS = [...UPSTREAM_FAULTS, ...GROUP_FAULTS, ...ANSWER_FAULTS, ...WIRE_FAULTS];
const only = process.env.BENCH_FAULTS?.split(',');
const SELECTED = SCENARIOS.filter((s) => !only || only.includes(s.router));

export async function run(): Promise<void> {
  const upstreams = await startFaultUpstreams();
  const models = Object.assign({}, ...SELECTED.map((s) => s.models)) as Record<
    string,
    [string, string]
  >;
  const routers = Object.fromEntries(
    SELECTED.filter((s) => Object.keys(s.models).length > 0).map((s) => [
      s.router,
      Object.keys(s.models),
    ]),
  );
  const config = writeFaultConfig(upstreams, models, routers);
  const gateway = await ChildServer.start(
    'gateway',
    join(here, 'servers/gateway-server.js'),
    [join(here, '../apps/gateway/src/create-gateway-app.js'), config],
    GATEWAY_NODE_FLAGS,
    GATEWAY_ENV,
  );
  const ask = faultClient(`${gateway.origin}/v1`);
  const started = performance.now();
  try {
    const context = { ask, upstreams, origin: gateway.origin };
    const play = async (scenario: Scenario) => ({
      scenario,
      result: await withinLimit(scenario.run(context)),
    });
    const verdicts = await Promise.all(SELECTED.filter((s) => !s.last).map(play));
    for (const scenario of SELECTED.filter((s) => s.last)) verdicts.push(await play(scenario));
    const idle = await gateway.stats();
    console.log(`\nfault bench: the demo gateway with defaults, ${SELECTED.length} scenarios\n`);
    console.log('| # | scenario | grade | what the caller got |');
    console.log('|---|---|---|---|');
    const byId = verdicts.toSorted((a, b) => a.scenario.router.localeCompare(b.scenario.router));
    for (const { scenario, result } of byId) {
      console.log(`| ${scenario.router} | ${scenario.name} | ${result.grade} | ${result.detail} |`);
    }
    const tally: Record<Grade, number> = { pass: 0, safe: 0, partial: 0, fail: 0 };
    for (const { result } of verdicts) tally[result.grade] += 1;
    const seconds = ((performance.now() - started) / 1000).toFixed(0);
    console.log(
      `\n${tally.pass} pass / ${tally.partial} partial / ${tally.safe} safe / ${tally.fail} fail` +
        ` (${seconds} s; gateway RSS after: ${(idle.rss / 2 ** 20).toFixed(0)} MB)`,
    );
  } finally {
    gateway.stop();
    await upstreams.close();
  }
}

async function withinLimit(running: Promise<Verdict>): Promise<Verdict> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<Verdict>((resolve) => {
    timer = setTimeout(
      () => resolve(verdict('fail', `hang: the scenario did not end in ${SCENARIO_LIMIT_MS} ms`)),
      SCENARIO_LIMIT_MS,
    );
  });
  try {
    return await Promise.race([
      running.catch((error: unknown) => verdict('fail', `the bench failed: ${String(error)}`)),
      limit,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
