// The exec runner (`leaseboard run -- COMMAND`): real runner processes, real child processes, real
// PostgreSQL. Every wait is on a condition (a line, a row, a process gone), never a fixed sleep.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { databaseUrl, forceExpire, uniqueLease, usePool } from '../../../db/testing/pools';
import { FreezableProxy } from '../../../db/testing/tcp-proxy';
import { entryArgs, JsonLineProcess, kernelState, ROOT } from '../../child/json-line-process';
import { processInfo } from '../../child/testing/process-tree';
import { LeaseAuthority, leaseTerms } from '../../lease';
import { readOneFacts } from '../../server/live/facts';
import { project } from '../../status';
import { poll } from '../../scheduler/testing/fixtures';

const WRITER = path.join(__dirname, 'testing/fenced-writer.mjs');
/** A takeover within seconds: ttl 3 s (renewal every 1 s), reports every 1 s, SIGKILL 2 s after SIGTERM. */
const FAST = ['--ttl', '3s', '--report-every', '1s', '--grace', '2s'];

describe('leaseboard run: any program under a lease', () => {
  const pool = usePool();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lb-exec-'));
  const runners: JsonLineProcess[] = [];
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  /** Commands' pids read from their pid files: killed after each test even if it failed before they ended. */
  const commands = new Set<number>();
  afterEach(async () => {
    await Promise.all(runners.splice(0).map((runner) => runner.stop(5_000)));
    for (const pid of commands) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // ended, as it should have
      }
    }
    commands.clear();
  });
  /** The pid a command wrote to `file`, once it did. */
  const commandPid = async (file: string) => {
    const pid = Number(
      (
        await poll(
          () => Promise.resolve(safeRead(file)),
          (text) => text.endsWith('\n'),
        )
      ).trim(),
    );
    commands.add(pid);
    return pid;
  };
  beforeAll(async () => {
    await pool.query(`CREATE TABLE IF NOT EXISTS exec_probe (lease text NOT NULL, epoch bigint NOT NULL, occurrence text NOT NULL, phase int NOT NULL);
      SELECT leaseboard_fence_table('exec_probe')`);
  });

  const runner = (name: string, args: string[], env: Record<string, string> = {}) => {
    const process = new JsonLineProcess({ name, entry: 'lib/cli/main.ts', args: ['run', ...args], env: { DATABASE_URL: databaseUrl(), ...env } });
    runners.push(process);
    return process;
  };
  /** The status service's read and projection: the last run's outcome, as the API and the dashboard show it. */
  const lastRun = async (lease: string) => {
    const read = await readOneFacts(pool, lease);
    return project(read.schedulers[0]!.facts, read.now, read.schedulers[0]!.thresholds).lastRun;
  };
  const occurrenceRow = (key: string) =>
    pool.query<{ state: string; exit_code: number | null }>('SELECT state, exit_code FROM occurrences WHERE key = $1', [key]).then((r) => r.rows[0] ?? null);

  it('progress lines on fd 3 become reports; exit 0 completes the occurrence', async () => {
    const lease = uniqueLease('exec-progress');
    const go = path.join(dir, `${lease}-go`);
    const script = `echo not-json >&3; echo '{"cursor": 7}' >&3; echo working; while [ ! -e ${go} ]; do sleep 0.05; done`;
    const r = runner('runner', ['--lease', lease, '--every', '1h', '--once', ...FAST, '--', 'sh', '-c', script]);
    const started = await r.waitFor((line) => line.event === 'child_started');
    const key = started.occurrence as string;
    expect(key.startsWith(`${lease}@`)).toBe(true);
    expect(await r.waitFor((line) => line.event === 'progress_ignored')).toMatchObject({ why: 'not_json' });
    // The cursor the child wrote is what the holder's reports carry, for this occurrence (a run's
    // reports, read back from its packed bytes: migration 0028_report_events).
    await poll(
      () =>
        pool
          .query(
            `SELECT 1 FROM progress_reports r CROSS JOIN LATERAL leaseboard_run_reports(r.lease, r.reported_at, r.seq, r.occurrence, r.cursor,
                                                                                  r.advanced, r.report_every_ms, r.packed) e
             WHERE r.lease = $1 AND e.occurrence = $2 AND e.cursor = 7`,
            [lease, key],
          )
          .then((q) => q.rowCount),
      (count) => count! > 0,
    );
    writeFileSync(go, '');
    expect(await r.exit()).toBe(0);
    expect(await occurrenceRow(key)).toEqual({ state: 'completed', exit_code: null });
    expect(await lastRun(lease)).toMatchObject({ state: 'succeeded', occurrence: key });
    expect(r.lines.some((line) => line.event === 'stderr' && line.text === 'working')).toBe(true); // the child's stdout went to the runner's stderr
    expect(r.lines.find((line) => line.event === 'child_exited')).not.toHaveProperty('tail'); // no tail for a success
  });

  it('a non-zero exit fails the occurrence with its code; the output tail is in the runner event only; a missing command is 127', async () => {
    const lease = uniqueLease('exec-fail');
    const r = runner('runner', ['--lease', lease, '--once', '--tail', '16', ...FAST, '--', 'sh', '-c', 'echo first-line-dropped; echo last-words; exit 7']);
    expect(await r.exit()).toBe(7);
    const failed = await r.waitFor((line) => line.event === 'occurrence_failed');
    expect(failed).toMatchObject({ exitCode: 7 });
    expect(await occurrenceRow(failed.occurrence as string)).toEqual({ state: 'failed', exit_code: 7 });
    expect(await lastRun(lease)).toMatchObject({ state: 'failed', exitCode: 7, occurrence: failed.occurrence });
    const exited = await r.waitFor((line) => line.event === 'child_exited');
    expect(exited).toMatchObject({ exitCode: 7, stoppedByUs: false, tail: 'pped\nlast-words\n' }); // the last 16 bytes

    const missing = runner('missing', ['--lease', uniqueLease('exec-missing'), '--once', ...FAST, '--', path.join(dir, 'no-such-command')]);
    expect(await missing.exit()).toBe(127);
  });

  it('on lease loss (renewal refused) a child that ignores SIGTERM is SIGKILLed within the grace period', async () => {
    const lease = uniqueLease('exec-loss');
    const pidFile = path.join(dir, `${lease}.pid`);
    // The shell ignores SIGTERM and loops: only SIGKILL ends it.
    const script = `trap '' TERM; echo $$ > ${pidFile}; while :; do sleep 0.1; done`;
    // --once: the runner leaves after this occurrence, and a lease loss is its exit code 3.
    const r = runner('runner', ['--lease', lease, '--once', ...FAST, '--', 'sh', '-c', script]);
    const started = await r.waitFor((line) => line.event === 'child_started');
    const pid = await commandPid(pidFile);
    expect(processInfo(pid)).not.toBeNull();
    // Someone else takes the lease: the runner's next renewal is refused.
    await forceExpire(pool, lease);
    const other = await new LeaseAuthority(pool).acquire(leaseTerms({ name: lease, ttlMs: 60_000 }), 'inst_otherholder', null);
    expect(other.kind).toBe('acquired');
    const lost = await r.waitFor((line) => line.event === 'lost', 10_000);
    expect(lost).toMatchObject({ why: 'renewal_refused', epoch: started.epoch });
    const stopping = await r.waitFor((line) => line.event === 'child_stopping');
    expect(stopping).toMatchObject({ why: 'renewal_refused', signal: 'SIGTERM', graceMs: 2_000 });
    const killed = await r.waitFor((line) => line.event === 'child_killed', 5_000);
    // Node's timers fire on the event loop's millisecond clock, which can read up to 1 ms ahead of Date.now()
    // differences: a 2 s grace measured 1,999 ms twice under load. The grace is kept to that millisecond.
    expect(killed.afterMs as number).toBeGreaterThanOrEqual(2_000 - 1);
    expect(killed.afterMs as number).toBeLessThan(3_000);
    await r.waitFor((line) => line.event === 'child_exited' && line.stoppedByUs === true, 5_000);
    expect(processInfo(pid)).toBeNull();
    // The occurrence is neither completed nor failed: it was interrupted, and stays running (abandoned).
    expect(await occurrenceRow(started.occurrence as string)).toEqual({ state: 'running', exit_code: null });
    // The dashboard says why: the occurrence was interrupted, its epoch lost the lease.
    expect(await lastRun(lease)).toMatchObject({ state: 'interrupted', occurrence: started.occurrence });
    expect(await r.exit()).toBe(3);
  });

  it('on lease loss (self-suspicion: the database stops answering) the command is stopped, and the dashboard says the lease expired', async () => {
    const lease = uniqueLease('exec-suspect');
    const pidFile = path.join(dir, `${lease}.pid`);
    const { proxy, url } = await FreezableProxy.before(databaseUrl());
    try {
      const r = runner('runner', ['--lease', lease, '--once', ...FAST, '--', 'sh', '-c', `echo $$ > ${pidFile}; while :; do sleep 0.1; done`], {
        DATABASE_URL: url,
      });
      const started = await r.waitFor((line) => line.event === 'child_started');
      const pid = await commandPid(pidFile);
      // The database stops answering this runner (nobody else's): its renewals' outcomes become unknown, and
      // once it can no longer prove its lease it suspects itself and stops the command — before the lease expires.
      proxy.freeze();
      const lost = await r.waitFor((line) => line.event === 'lost', 15_000);
      expect(lost).toMatchObject({ why: 'self_suspected', epoch: started.epoch });
      expect(await r.waitFor((line) => line.event === 'child_stopping')).toMatchObject({ why: 'self_suspected', signal: 'SIGTERM' });
      await r.waitFor((line) => line.event === 'child_exited' && line.stoppedByUs === true, 5_000);
      expect(processInfo(pid)).toBeNull();
      // Nobody took over: once its lease has expired, the dashboard shows the run interrupted, and why it can tell.
      await poll(
        () => lastRun(lease),
        (run) => run.state === 'interrupted',
        15_000,
      );
      expect((await lastRun(lease)).message).toContain('lease expired before it ended');
      proxy.thaw();
      expect(await r.exit()).toBe(3);
    } finally {
      await proxy.close();
    }
  });

  it('a runner whose supervisor is gone leaves nothing behind, even a command that ignores SIGTERM past the shutdown deadline', async () => {
    const lease = uniqueLease('exec-orphan');
    const pidFile = path.join(dir, `${lease}.pid`);
    const script = `trap '' TERM; echo $$ > ${pidFile}; while :; do sleep 0.1; done`;
    // A grace far beyond the runner's own shutdown deadline (lib/child/parent.ts): only its exit hook can end the command in time.
    const r = runner('runner', ['--lease', lease, ...FAST, '--grace', '1h', '--', 'sh', '-c', script]);
    await r.waitFor((line) => line.event === 'child_started');
    const pid = await commandPid(pidFile);
    r.child.stdin!.end(); // the supervisor is gone
    await r.exit();
    await poll(
      () => Promise.resolve(processInfo(pid)),
      (info) => info === null,
      2_000,
    );
  });

  it('after a takeover the next holder runs the next slot, and the stale child’s fenced write is refused', async () => {
    const lease = uniqueLease('exec-takeover');
    const args = ['--lease', lease, '--every', '1s', '--pass-database-url', '--pass-env', 'PROBE_DIR', ...FAST, '--', process.execPath, WRITER];
    const a = runner('A', args, { PROBE_DIR: dir });
    const aStarted = await a.waitFor((line) => line.event === 'child_started');
    await a.waitFor((line) => line.event === 'stderr' && String(line.text).startsWith('phase 1 written'));
    const b = runner('B', args, { PROBE_DIR: dir });
    await b.waitFor((line) => line.event === 'held');
    // A's runner pauses (its child does not): its lease expires and B takes over.
    a.signal('SIGSTOP');
    await poll(
      () => Promise.resolve(kernelState(a.pid)),
      (state) => state === 'T',
    );
    const bAcquired = await b.waitFor((line) => line.event === 'acquired', 15_000);
    const epochA = aStarted.epoch as number;
    expect(bAcquired.epoch).toBeGreaterThan(epochA);
    const bStarted = await b.waitFor((line) => line.event === 'child_started');
    expect(String(bStarted.occurrence) > String(aStarted.occurrence)).toBe(true); // the next slot, not A's again
    // A's child, still running under the old epoch, tries its second write: the fence refuses it.
    writeFileSync(path.join(dir, `go-${lease}-${epochA}`), '');
    const outcome = await poll(
      () => Promise.resolve(safeRead(path.join(dir, `result-${lease}-${epochA}`))),
      (text) => text !== '',
    );
    expect(outcome).toMatch(/^refused LB001/);
    writeFileSync(path.join(dir, `go-${lease}-${bAcquired.epoch}`), '');
    await b.waitFor((line) => line.event === 'occurrence_completed' && line.occurrence === bStarted.occurrence);
    const { rows } = await pool.query<{ epoch: number; phase: number }>('SELECT epoch::int, phase FROM exec_probe WHERE lease = $1 ORDER BY epoch, phase', [
      lease,
    ]);
    expect(rows.filter((row) => row.epoch === epochA)).toEqual([{ epoch: epochA, phase: 1 }]);
    expect(rows).toContainEqual({ epoch: bAcquired.epoch, phase: 2 });
    // A wakes: its lease is gone; it never writes the interrupted occurrence's end.
    a.signal('SIGCONT');
    await a.waitFor((line) => line.event === 'lost' || line.event === 'held', 10_000);
    expect((await occurrenceRow(aStarted.occurrence as string))?.state).toBe('running');
  });
});

describe('leaseboard run: options', () => {
  // The CLI as the tier starts every child: its prebuilt bundle (a tenth of a second, not tsx's transpile), the same sources.
  const cli = (...args: string[]) =>
    spawnSync(process.execPath, [...entryArgs('lib/cli/main.ts'), ...args], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, DATABASE_URL: databaseUrl() },
    });

  it('refuses a cron expression, saying it is not accepted yet, and a missing command; exit 2', () => {
    const cron = cli('run', '--every', '0 3 * * *', '--', 'true');
    expect(cron.status).toBe(2);
    expect(cron.stderr).toContain('cron expressions are not accepted yet');
    const long = cli('run', '--every', '30d', '--', 'true');
    expect(long.status).toBe(2);
    expect(long.stderr).toContain('at most 24d');
    const none = cli('run', '--every', '5m');
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('no command');
  });

  it('answers --help on stdout with its exit codes, exit 0', () => {
    const help = cli('run', '--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('exit codes:');
  });
});

function safeRead(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
