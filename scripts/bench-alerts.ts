/**
 * `npm run bench:alerts` — evaluating 10,000 schedulers × the 5 scheduler
 * rules + the 2 service rules (StatusStoreUnreadable, Watchdog) in one
 * evaluator round: p50/p99 (target < 100 ms) against baselines measured in
 * the same run (projecting the same statuses; a bare loop over the pairs).
 * Not a test: prints figures and exits 0 (1 only if the bench itself fails).
 *
 * Measured twice, each in its own process (scripts/bench-alerts-run.ts):
 * under tsx, as `npm run scheduler` runs jobs today, and bundled by esbuild
 * for plain node (no loader), as a built deployment would. Prints the load
 * average: on a shared machine wall time includes waiting for a core, so the
 * process's CPU time is printed beside it.
 * Then the evaluator job's full round against a real PostgreSQL with as many
 * schedulers (scripts/bench-alerts-job.ts): read, plan, fenced write, and the
 * same under the runtime, against the status service's own fresh read.
 * Env: BENCH_SCHEDULERS (10,000), BENCH_ROUNDS (200), BENCH_JOB_ROUNDS (40);
 * DATABASE_URL for the job part's server (else an embedded PostgreSQL).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildSync } from 'esbuild';
import { fmt, verdict, type Stats } from './bench-stats';

interface Figures {
  n: number;
  rounds: number;
  counts: Record<string, number>;
  records: number;
  firstSent: number;
  steadySent: Stats;
  first: Stats;
  wall: Stats;
  cpu: Stats;
  projection: Stats;
  bare: Stats;
}

const log = (line: string) => process.stdout.write(`${line}\n`);
const root = path.resolve(__dirname, '..');
const child = path.join(__dirname, 'bench-alerts-run.ts');

function run(label: string, command: string, args: string[]): Figures {
  const r = spawnSync(command, args, { cwd: root, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '--expose-gc' } });
  if (r.status !== 0) throw new Error(`${label} run failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!) as Figures;
}

function report(label: string, f: Figures): void {
  log(`\n${label}`);
  log(`  first round (cold; every activation, ${f.firstSent} alerts to send):  ${fmt(f.first)}`);
  log(`  ${f.rounds} rounds, 5 s of database time apart (alerts to send per round: median ${f.steadySent.p50}, max ${f.steadySent.max}):`);
  log(`    wall: ${fmt(f.wall)}  target < 100 ms (p99): ${verdict(f.wall.p99 < 100)}`);
  log(`    CPU time of the process: ${fmt(f.cpu)}`);
  log(
    `  baseline: projecting the same ${f.n.toLocaleString('en')} facts (lib/status):  ${fmt(f.projection)}  → a round costs ${(f.wall.p50 / f.projection.p50).toFixed(2)}× the projection (p50)`,
  );
  log(
    `  baseline: bare loop, one record lookup per (scheduler, rule):  ${fmt(f.bare)}  → a round costs ${(f.wall.p50 / f.bare.p50).toFixed(2)}× the bare loop (p50)`,
  );
}

function main(): void {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'leaseboard-bench-alerts-'));
  try {
    const bundle = path.join(dir, 'bench-alerts-run.js');
    buildSync({ entryPoints: [child], bundle: true, platform: 'node', outfile: bundle, logLevel: 'error' });
    const [load] = os.loadavg();
    const tsx = run('tsx', path.join(root, 'node_modules', '.bin', 'tsx'), [child]);
    const bundled = run('bundled', process.execPath, [bundle]);
    const [loadAfter] = os.loadavg();
    log(`bench:alerts — ${tsx.n.toLocaleString('en')} schedulers × 5 scheduler rules + 2 service rules, every rule on, 100 per-scheduler overrides`);
    log(`  load average ${load!.toFixed(1)} → ${loadAfter!.toFixed(1)} on ${os.cpus().length} cores`);
    log(
      `  healths: ${Object.entries(tsx.counts)
        .map(([h, n]) => `${h} ${n}`)
        .join(', ')}; alert records after the last round: ${tsx.records}`,
    );
    report('under tsx (as `npm run scheduler` runs jobs):', tsx);
    report('bundled for plain node (esbuild, no loader):', bundled);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const job = spawnSync(path.join(root, 'node_modules', '.bin', 'tsx'), [path.join(__dirname, 'bench-alerts-job.ts')], { cwd: root, stdio: 'inherit' });
  if (job.status !== 0) throw new Error('the job round bench failed');
}

try {
  main();
} catch (error) {
  console.error(error);
  process.exitCode = 1;
}
