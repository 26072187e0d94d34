/**
 * `npm run bench:exec`: the exec runner's overhead — from a cadence slot's
 * start (its instant on the database clock) to its command's start (the
 * child spawned, host clock; one machine, so the clocks agree to well under
 * a millisecond). A runtime with the exec job (`leaseboard run --every 1s
 * -- sh -c true`, in process) runs in a fresh database (DATABASE_URL's
 * server, or an embedded one) for BENCH_EXEC_SLOTS slots; the first slot
 * (joined mid-way) is left out. Baseline in the same run: a bare
 * `spawn('sh', ['-c', 'true'])` to its 'spawn' event. Prints p50/p99 of
 * both and their ratio. Asserts nothing.
 */
import { spawn } from 'node:child_process';
import { createPool, createReadOnlyPool } from '../db/pool';
import { createTestDatabase } from '../db/testing/test-database';
import { execJob, type ExecEvent } from '../lib/jobs';
import { schedulerConfig, SchedulerRuntime } from '../lib/scheduler';
import { envInt, fmt, stats } from './bench-stats';

const SLOTS = envInt('BENCH_EXEC_SLOTS', 40);

async function bareSpawn(n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const child = spawn('sh', ['-c', 'true'], { stdio: ['ignore', 'pipe', 'pipe', 'pipe'], detached: true });
    await new Promise((resolve) => child.once('spawn', resolve));
    out.push(performance.now() - t);
    await new Promise((resolve) => child.once('exit', resolve));
  }
  return out;
}

async function main() {
  const database = await createTestDatabase(() => {});
  const db = createPool(database.url, { applicationName: 'bench-exec' });
  const readDb = createReadOnlyPool(database.url, { applicationName: 'bench-exec' });
  try {
    const lags: number[] = [];
    let done!: () => void;
    const enough = new Promise<void>((resolve) => (done = resolve));
    let seen = 0;
    const job = execJob({
      lease: 'bench-exec',
      everyMs: 1_000,
      command: 'sh',
      args: ['-c', 'true'],
      env: process.env,
      output: () => {},
      onEvent: (event: ExecEvent) => {
        if (event.event !== 'child_started') return;
        if (seen++ > 0) lags.push(event.startLagMs); // the first slot was joined mid-way
        if (lags.length >= SLOTS) done();
      },
    });
    const runtime = new SchedulerRuntime(job, schedulerConfig({ name: 'bench-exec', batchWorkMs: 0 }), { db, readDb });
    process.stdout.write(`bench:exec: ${SLOTS} slots of 1 s…\n`);
    runtime.start();
    await enough;
    await runtime.stop();
    const baseline = stats(await bareSpawn(SLOTS));
    const overhead = stats(lags);
    process.stdout.write(`slot start → child start (runner):   ${fmt(overhead)}\n`);
    process.stdout.write(`bare spawn → 'spawn' (baseline):     ${fmt(baseline)}\n`);
    process.stdout.write(`ratio runner / bare spawn: p50 ${(overhead.p50 / baseline.p50).toFixed(1)}× · p99 ${(overhead.p99 / baseline.p99).toFixed(1)}×\n`);
  } finally {
    await Promise.all([db.end(), readDb.end()]);
    await database.drop();
  }
}

void main();
