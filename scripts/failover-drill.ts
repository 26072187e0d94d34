/**
 * `npm run failover-drill -- --async|--sync [--rounds N]`: the authority
 * through real database failovers. Builds a primary and a streaming standby
 * from this machine's PostgreSQL binaries (db/replication), runs the archive,
 * two scheduler processes and the status service against both nodes (one
 * connection string listing both), then N times: the leader pauses mid-write,
 * the other takes over (in `--async`, with the standby cut off: the takeover
 * is lost), the primary crashes (`immediate`), the standby is promoted, the
 * old primary rejoins as its standby, and the paused leader resumes and sends
 * the write it held (scripts/failover/drill-round.ts).
 *
 * `--sync` runs as Patroni's `synchronous_mode` (a promoted node commits alone until its
 * standby is back); `--strict` as `synchronous_mode_strict` (it waits).
 *
 * Prints a table per round and a summary; exits 1 on a repeated epoch or an
 * accepted stale write, 2 on bad arguments. Leaves nothing running (every
 * server and process it starts stops with it, Ctrl-C included).
 */
import { parseArgs } from 'node:util';
import { createPool } from '../db/pool';
import { LocalPair, type ReplicationMode } from '../db/replication/local-pair';
import { ArchiveProcess } from '../examples/demo/archive/process';
import { seedDocuments } from '../examples/demo/retention-planner/documents';
import { SchedulerProcess } from '../lib/child/scheduler-process';
import { DEMO_SCHEDULER_PROGRAM } from '../examples/demo/demo-scheduler';
import { FAST_FLAGS } from '../lib/scheduler/testing/fast-flags';
import { formatEpoch } from '../lib/status/epoch';
import { DashboardWatch } from './failover/dashboard-watch';
import { type RoundResult, runRound } from './failover/drill-round';

const LEASE = 'failover-drill';

function usage(message: string): never {
  console.error(`failover-drill: ${message}\nusage: npm run failover-drill -- --async|--sync [--strict] [--rounds N (1–100, default 3)]`);
  process.exit(2);
}

function parse(): { mode: ReplicationMode; strict: boolean; rounds: number } {
  let values;
  try {
    ({ values } = parseArgs({ options: { async: { type: 'boolean' }, sync: { type: 'boolean' }, strict: { type: 'boolean' }, rounds: { type: 'string' } } }));
  } catch (error) {
    usage((error as Error).message);
  }
  if (values.async === values.sync) usage('say --async or --sync');
  if (values.strict && !values.sync) usage('--strict is a --sync setting');
  const rounds = Number(values.rounds ?? 3);
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > 100) usage('--rounds: a whole number from 1 to 100');
  return { mode: values.sync ? 'sync' : 'async', strict: values.strict ?? false, rounds };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function row(round: number, r: RoundResult): string {
  const granted = r.granted.map((g) => `${formatEpoch(g.epoch)}${g.lost ? ' (lost)' : ''}`).join(', ');
  return `| ${round} | ${seconds(r.promotedMs)} | ${seconds(r.renewingMs)} (${seconds(r.renewingMs - r.promotedMs)} after) | ${granted} | ${r.stale.attempted} / ${r.stale.refused} / ${r.stale.accepted} | ${r.dashboard} |`;
}

async function main() {
  const { mode, strict, rounds } = parse();
  const cleanups: (() => Promise<unknown>)[] = [];
  const cleanup = async () => {
    for (const step of cleanups.splice(0).reverse()) await step().catch(() => {});
  };
  process.on('SIGINT', () => void cleanup().then(() => process.exit(130)));
  try {
    const started = performance.now();
    const pair = await LocalPair.start(mode, { strict });
    cleanups.push(() => pair.stop());
    const archive = await ArchiveProcess.start();
    cleanups.push(() => archive.process.stop());
    const db = createPool(pair.url, { applicationName: 'failover-drill' });
    const readDb = createPool(pair.url, { applicationName: 'failover-drill-status', readOnly: true, statementTimeoutMs: 1_000, connectTimeoutMs: 1_000 });
    cleanups.push(() => Promise.all([db.end(), readDb.end()]));
    await seedDocuments(db, 20_000);
    await pair.caughtUp();

    const grants: number[] = [];
    const flags = { ...FAST_FLAGS, every: 10_000 };
    const schedulers = ['A', 'B'].map(
      (label) =>
        new SchedulerProcess({
          program: DEMO_SCHEDULER_PROGRAM,
          lease: LEASE,
          label,
          databaseUrl: pair.url,
          flags,
          options: { 'archive-url': archive.url },
          env: { LEASEBOARD_ARCHIVE_TOKEN: archive.token },
          onLine: (line) => {
            if (line.event === 'acquired' && line.adopted === false) grants.push(Number(line.epoch));
          },
        }),
    );
    cleanups.push(() => Promise.all(schedulers.map((s) => s.stop())));
    await Promise.all(schedulers.map((s) => s.waitFor((line) => line.event === 'acquired' || line.event === 'held', 30_000)));
    console.log(
      `failover drill: ${mode}${mode === 'sync' ? (strict ? ' (strict: a primary without a standby waits)' : ' (a promoted node commits alone until its standby is back)') : ''} replication, ${rounds} rounds; ttl ${flags.ttl} ms, renew every ${flags['renew-every']} ms; ready in ${seconds(performance.now() - started)}\n`,
    );
    console.log(
      '| round | crash → writable node | crash → renewing holder | epochs granted | stale writes attempted / refused / accepted | the dashboard in the window |',
    );
    console.log('|---|---|---|---|---|---|');
    const results: RoundResult[] = [];
    const watch = new DashboardWatch(readDb, LEASE);
    for (let round = 1; round <= rounds; round++) {
      const result = await runRound({ pair, db, lease: LEASE, schedulers, grants, watch });
      results.push(result);
      console.log(row(round, result));
    }

    const repeated = grants.filter((epoch, i) => grants.indexOf(epoch) !== i);
    const accepted = results.reduce((sum, r) => sum + r.stale.accepted, 0);
    const renewing = results.map((r) => r.renewingMs);
    const afterPromotion = results.map((r) => r.renewingMs - r.promotedMs);
    console.log(`\nepochs granted: ${grants.length}, each once: ${repeated.length === 0 ? 'yes' : `NO — repeated ${[...new Set(repeated)].join(', ')}`}`);
    console.log(
      `stale writes: ${results.reduce((sum, r) => sum + r.stale.attempted, 0)} attempted, ${results.reduce((sum, r) => sum + r.stale.refused, 0)} refused, ${accepted} accepted`,
    );
    console.log(`crash → renewing holder: median ${seconds(median(renewing))}, max ${seconds(Math.max(...renewing))}`);
    console.log(
      `promotion → renewing holder: median ${seconds(median(afterPromotion))}, max ${seconds(Math.max(...afterPromotion))} (target ≤ ttl + 5 s = ${seconds(flags.ttl + 5_000)})`,
    );
    await cleanup();
    process.exit(repeated.length > 0 || accepted > 0 ? 1 : 0);
  } catch (error) {
    console.error(`failover drill: ${error instanceof Error ? error.message : String(error)}`);
    await cleanup();
    process.exit(1);
  }
}

void main();
