/**
 * `npm run soak -- --minutes M --speed X [--horizon 60s] [--no-pruner]`
 *
 * Runs Leaseboard for M minutes of wall time against a fresh database
 * (beside DATABASE_URL's if its server runs autovacuum, else in an embedded
 * PostgreSQL: scripts/soak/database.ts; dropped at the end):
 * two planners contending for `retention-planner`, one more planner lease
 * (`index-compaction`), the alert evaluator and the retention pruner, each a
 * real scheduler process, with cadences and report intervals divided by X and
 * every retention shrunk to the horizon (scripts/soak/plan.ts). Every soak
 * minute (60 s / X, at least 2 s) it samples each table's rows and bytes,
 * each process's RSS and the status list's latency (scripts/soak/sample.ts),
 * prints a line, and at the end the verdict (scripts/soak/verdict.ts).
 *
 * Exit: 0 flat; 1 something grew, a process died, or the run was too short
 * to judge; 2 bad flags; 130 interrupted. `--no-pruner` shows the verdict
 * failing when nothing prunes.
 * Guarantees: nothing is left running on any exit (Ctrl-C included) and the
 * database it made is dropped; the list is read by the status service's own
 * code in this process (lib/server/service.ts, no HTTP), so the soak
 * process's RSS is the status service's too.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { createPool } from '../db/pool';
import { seedDocuments } from '../examples/demo/retention-planner/documents';
import { StatusService } from '../lib/server/service';
import { soakDatabase } from './soak/database';
import { SoakFleet } from './soak/fleet';
import { parseSoakArgs, SOAK_DOCUMENTS, SoakUsageError, type SoakPlan } from './soak/plan';
import { latencySummary, sampleHeader, sampleLine, verdictReport } from './soak/report';
import { listTables, residentBytes, sampleTables, timeList, type SoakSample } from './soak/sample';
import { soakVerdict } from './soak/verdict';
import { RunControl } from './soak/run-control';

const log = (line: string) => console.log(`[soak] ${line}`);
const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

function planOrExit(): SoakPlan {
  try {
    return parseSoakArgs(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof SoakUsageError)) throw error;
    process.stderr.write(`soak: ${error.message}\n`);
    process.exit(2);
  }
}

async function main() {
  const plan = planOrExit();
  const run = new RunControl();
  const { stop, cleanups, failures } = run;

  const samples: SoakSample[] = [];
  let judgeAfterMs = plan.judgeAfterMs;
  try {
    log(
      `${seconds(plan.durationMs)} at speed ${plan.speed}: horizon ${seconds(plan.horizonMs)}, partitions ${seconds(plan.partitionWidthMs)}, ` +
        `pruner every ${plan.pruner ? seconds(plan.prunerEveryMs) : '— (--no-pruner)'}, a sample every ${seconds(plan.sampleEveryMs)}`,
    );
    const database = await soakDatabase(log, 60 / plan.speed);
    cleanups.push(() => database.drop());
    const db = createPool(database.url, { applicationName: 'leaseboard-soak', max: 2, statementTimeoutMs: 30_000 });
    const listDb = createPool(database.url, { applicationName: 'leaseboard-soak-list', max: 2, readOnly: true });
    cleanups.push(
      () => db.end(),
      () => listDb.end(),
    );
    log(`documents: ${await seedDocuments(db, SOAK_DOCUMENTS)}`);
    // Deleted rows free space for new ones only once autovacuum has passed: bytes settle one naptime after rows do.
    const { rows: nap } = await db.query<{ ms: number }>(`SELECT extract(epoch FROM current_setting('autovacuum_naptime')::interval)::float8 * 1000 AS ms`);
    judgeAfterMs = plan.judgeAfterMs + nap[0]!.ms;
    log(`judged from ${seconds(judgeAfterMs)}: horizon + partition width + pruner cadence + autovacuum naptime (${seconds(nap[0]!.ms)})`);
    const service = new StatusService({ db: listDb, readTimeoutMs: 5_000, pollIntervalMs: 2_000, listMaxAgeMs: 0, log: () => {} });

    const fleet = new SoakFleet(plan.processes, database.url, plan.env, log, (id, code, last) => {
      failures.push(`${id} exited (${code}) during the soak; last lines: ${last.join(' | ')}`);
      stop.abort();
    });
    cleanups.push(() => fleet.stop());
    await fleet.ready(60_000);
    const pids = fleet.pids();
    log(
      `up: ${Object.entries(pids)
        .map(([id, pid]) => `${id} (pid ${pid})`)
        .join(', ')}; soak (list) pid ${process.pid}`,
    );

    const tables = await listTables(db);
    const started = performance.now();
    console.log(sampleHeader());
    while (!stop.signal.aborted) {
      const atMs = performance.now() - started;
      const list = await timeList(service);
      const rss: Record<string, number | null> = Object.fromEntries(Object.entries(pids).map(([id, pid]) => [id, residentBytes(pid)]));
      rss['soak (list)'] = process.memoryUsage().rss;
      const sample: SoakSample = { atMs, tables: await sampleTables(db, tables), rss, listMs: list.ms, listOk: list.ok };
      samples.push(sample);
      console.log(sampleLine(sample));
      const nextAt = started + samples.length * plan.sampleEveryMs;
      if (nextAt - started > plan.durationMs) break;
      await sleep(Math.max(0, nextAt - performance.now()), undefined, { signal: stop.signal }).catch(() => {});
    }
  } catch (error) {
    failures.push(error instanceof Error ? error.message : String(error));
  } finally {
    log('stopping…');
    for (const cleanup of cleanups.reverse()) await cleanup().catch((error) => log(`cleanup: ${String(error)}`));
    log('stopped; database dropped, nothing left running');
  }

  console.log(latencySummary(samples));
  const verdict = soakVerdict(samples, judgeAfterMs, plan.partitionWidthMs);
  for (const line of verdictReport(verdict)) console.log(line);
  for (const failure of failures) console.log(`soak: FAILED — ${failure}`);
  if (run.interrupted) {
    console.log('soak: interrupted');
    process.exit(130);
  }
  process.exit(failures.length === 0 && verdict.kind === 'flat' ? 0 : 1);
}

void main();
