// `leaseboard scheduler` runs only the job it is told to: given no --job, it refuses on stderr, naming
// how to give one and the jobs there are, exit 2, and starts nothing (no lease is taken). The demo's job
// is not among Leaseboard's: it runs in the demo's own program (examples/demo/scheduler.ts).
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { databaseUrl, uniqueLease, usePool } from '../../db/testing/pools';
import { entryArgs, JsonLineProcess, ROOT } from '../child/json-line-process';
import { readOneFacts } from '../server/live/facts';
import { JOBS } from '../jobs';

describe('leaseboard scheduler: which job', () => {
  const pool = usePool();
  // The CLI as the tier starts every child: its prebuilt bundle when there is one, the same sources.
  const cli = (...args: string[]) =>
    spawnSync(process.execPath, [...entryArgs('lib/cli/main.ts'), 'scheduler', ...args], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, DATABASE_URL: databaseUrl() },
      timeout: 60_000,
    });

  it('given no --job, refuses on stderr naming --job NAME and every job, exit 2, and takes no lease', async () => {
    const lease = uniqueLease('nojob');
    const run = cli('--lease', lease, '--label', 'A');
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('no job given: name one with --job NAME');
    for (const name of Object.keys(JOBS)) expect(run.stderr).toContain(name);
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM leases WHERE name = $1', [lease]);
    expect(rows[0].n).toBe(0);
  });

  it("given the demo's job by name, refuses it as unknown (the product does not carry it), exit 2", () => {
    const run = cli('--job', 'retention-planner');
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--job: one of');
    expect(run.stderr).toContain('"retention-planner"');
  });

  it('given --label KEY=VALUE, registers the scheduler with those labels (--label TEXT stays the display label); a bad one is refused, exit 2', async () => {
    const lease = uniqueLease('cli-labels');
    const runner = new JsonLineProcess({
      name: 'scheduler',
      entry: 'lib/cli/main.ts',
      args: ['scheduler', '--job', 'squares', '--lease', lease, '--label', 'team=payments', '--label', 'A'],
      env: { DATABASE_URL: databaseUrl() },
    });
    try {
      await runner.waitFor((line) => line.event === 'registered');
      expect((await readOneFacts(pool, lease)).schedulers[0]?.facts.labels).toEqual({ team: 'payments' });
    } finally {
      await runner.stop(5_000);
    }
    const bad = cli('--job', 'squares', '--lease', uniqueLease('cli-labels-bad'), '--label', 'team=a', '--label', 'team=b');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--label: label "team": given twice');
  });

  it('answers --help on stdout: --job is required, exit 0', () => {
    const help = cli('--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('usage: leaseboard scheduler --job NAME');
    expect(help.stdout).toContain('--job (required');
  });
});
