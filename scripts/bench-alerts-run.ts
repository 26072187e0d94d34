/**
 * Child of `npm run bench:alerts` (scripts/bench-alerts.ts): measures one
 * evaluator round over N schedulers and prints ONE JSON line of figures.
 *
 * 1. Builds N schedulers' facts at one database instant, with a mix like
 *    bench:status (10% stalled, 5% no leader, 5% silent → unknown, 1%
 *    disabled, 2% at risk, 1% with a recent stale-write rejection), and
 *    projects them (lib/status) into the evidence the rules read.
 * 2. Runs evaluator rounds every 5 s of (fake) database time, each from the
 *    previous round's records, every rule `on` with 100 per-scheduler
 *    overrides, so the rounds include activations, firings and re-sends
 *    (every 60 s).
 * 3. Baselines in the same process: projecting the same N facts (what a
 *    status read already pays every poll), and a bare loop that only looks
 *    up one record per (scheduler, rule) pair in per-rule maps.
 * Wall and CPU time per round (on a shared machine wall time includes
 * waiting for a core). Env: BENCH_SCHEDULERS (10,000), BENCH_ROUNDS (200).
 */
import { evaluateRound, modeTable, parseAlertConfig, schedulerEvidence, SCHEDULER_ALERT_NAMES, type AlertRecord, type ModeSetting } from '../lib/alerts';
import { project } from '../lib/status';
import type { SchedulerFacts, SchedulerStatus } from '../lib/status/types';
import { envInt, stats, time, timeWithCpu } from './bench-stats';

const N = envInt('BENCH_SCHEDULERS', 10_000);
const ROUNDS = envInt('BENCH_ROUNDS', 200);
const T0 = Date.parse('2026-12-01T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const SEC = 1_000;
const MIN = 60 * SEC;

function factsOf(g: number, now: number): SchedulerFacts {
  const name = `sched-${String(g).padStart(5, '0')}`;
  const noLeader = g % 20 === 1;
  const lease = {
    name,
    holder: `inst_${(g * 7919).toString(36).padStart(8, '0').slice(-8)}`,
    label: 'bench',
    epoch: 1 + (g % 5),
    acquiredAt: iso(now - 3 * 60 * MIN),
    renewedAt: iso(now - (g % 50 === 3 ? 11 * SEC : (g % 7) * SEC)),
    expiresAt: iso(noLeader ? now - 10 * SEC : now + 15 * SEC - (g % 7) * SEC),
    ttlMs: 15 * SEC,
    released: false,
  };
  const silent = g % 20 === 2;
  const stalled = g % 10 === 4;
  return {
    name,
    store: { ok: true },
    lease,
    intent: g % 100 === 7 ? { disabled: true, by: 'bench', reason: 'maintenance', at: iso(now - MIN) } : null,
    progress: {
      epoch: lease.epoch,
      lastReportAt: iso(now - (silent ? 5 * MIN : SEC)),
      lastSeq: 1_000,
      lastAdvanceAt: iso(now - (stalled ? 10 * MIN : 3 * SEC)),
      inFlight: `${name}@2026-12-01T12:00:00Z`,
      cursor: 42,
      reportEveryMs: 5 * SEC,
      gap: null,
    },
    due: null,
  };
}

async function main(): Promise<void> {
  const config = parseAlertConfig({ LEASEBOARD_EXTERNAL_URL: 'https://ops.example/leaseboard' });
  const at = (round: number) => T0 + round * config.evaluateEveryMs;
  const facts = Array.from({ length: N }, (_, i) => factsOf(i + 1, T0));
  let statuses: SchedulerStatus[] = [];
  const projection = stats(await time(30, () => (statuses = facts.map((f) => project(f, iso(T0)))), true));
  const evidence = statuses.map((s, i) => schedulerEvidence(s, (i + 1) % 100 === 11 ? iso(T0 - MIN) : null));
  const counts = statuses.reduce<Record<string, number>>((c, s) => ((c[s.health] = (c[s.health] ?? 0) + 1), c), {});

  const setting = (mode: ModeSetting['mode']): ModeSetting => ({ mode, by: 'bench', reason: 'bench', at: iso(T0) });
  const modes = modeTable([
    ...[...SCHEDULER_ALERT_NAMES, 'StatusStoreUnreadable' as const, 'Watchdog' as const].map((rule) => ({ rule, scheduler: null, ...setting('on') })),
    ...Array.from({ length: 100 }, (_, i) => ({ rule: 'SchedulerStalled' as const, scheduler: statuses[i * 97]!.name, ...setting('shadow') })),
  ]);

  let previous = new Map<string, AlertRecord>();
  let round = 0;
  const sent: number[] = [];
  const evaluate = () => {
    const now = iso(at(round));
    const result = evaluateRound({ now, service: { storeReadable: true, lastObservedAt: now }, schedulers: evidence, modes, previous, config });
    previous = result.records;
    sent.push(result.outgoing.length);
    round += 1;
  };
  const first = stats(await time(1, evaluate));
  const firstSent = sent[0]!;
  const rounds = timeWithCpu(ROUNDS, evaluate, true);
  const wall = stats(rounds.wall);
  const cpu = stats(rounds.cpu);
  const steadySent = stats(sent.slice(1));

  // The least any evaluator does: one lookup per (scheduler, rule) in per-rule maps of its records.
  const byRule = new Map(
    SCHEDULER_ALERT_NAMES.map((rule) => [
      rule,
      new Map([...previous].filter(([k]) => k.startsWith(`${rule}/`)).map(([k, v]) => [k.slice(rule.length + 1), v])),
    ]),
  );
  const bare = stats(
    timeWithCpu(
      ROUNDS,
      () => {
        let hits = 0;
        for (const rule of SCHEDULER_ALERT_NAMES) {
          const records = byRule.get(rule)!;
          for (const e of evidence) if (records.has(e.scheduler)) hits += 1;
        }
        return hits;
      },
      true,
    ).wall,
  );

  const out = { n: N, rounds: ROUNDS, counts, records: previous.size, firstSent, steadySent, first, wall, cpu, projection, bare };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
