// The shell example (examples/shell/under-lease.sh) through psql and the SQL
// functions, against a real PostgreSQL: the command runs with its epoch and its
// status; a held lease exits 75; a lease taken away stops the command and exits 70.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { databaseUrl, forceExpire, uniqueLease, usePool } from '../../db/testing/pools';

const SCRIPT = path.join(__dirname, 'under-lease.sh');
const HAS_PSQL = spawnSync('psql', ['--version'], { stdio: 'ignore' }).status === 0;
const NO_PSQL = 'no psql here (Debian: postgresql-client)';

function underLease(lease: string, ttlMs: number, command: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('sh', [SCRIPT, lease, String(ttlMs), '--', ...command], { env: { ...process.env, DATABASE_URL: databaseUrl() } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('the shell example (psql, the SQL functions)', () => {
  const db = usePool();
  const leaseRow = async (lease: string) =>
    (await db.query(`SELECT epoch::text, released_at IS NOT NULL AS released FROM leases WHERE name = $1`, [lease])).rows[0] as
      { epoch: string; released: boolean } | undefined;

  it('runs the command with its lease and epoch, passes its status through, and releases', async (ctx) => {
    if (!HAS_PSQL) ctx.skip(NO_PSQL);
    const lease = uniqueLease('shell');
    const run = await underLease(lease, 3_000, ['sh', '-c', 'echo "$LEASEBOARD_LEASE $LEASEBOARD_EPOCH"; exit 3']);
    const row = await leaseRow(lease);
    expect(run.status, run.stderr).toBe(3);
    expect(run.stdout.trim()).toBe(`${lease} ${row!.epoch}`);
    expect(row!.released).toBe(true);
  });

  it('exits 75 without running anything while someone else holds the lease', async (ctx) => {
    if (!HAS_PSQL) ctx.skip(NO_PSQL);
    const lease = uniqueLease('shell-held');
    await db.query(`SELECT * FROM leaseboard_acquire($1, 'someone-else', 'other', 60000)`, [lease]);
    const run = await underLease(lease, 3_000, ['sh', '-c', 'echo ran']);
    expect(run.status).toBe(75);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('held by another holder');
  });

  it('stops the command and exits 70 when a renewal is refused (the lease was taken over)', async (ctx) => {
    if (!HAS_PSQL) ctx.skip(NO_PSQL);
    const lease = uniqueLease('shell-lost');
    const started = Date.now();
    const running = underLease(lease, 1_500, ['sleep', '30']);
    let row;
    while (!(row = await leaseRow(lease))) await new Promise((resolve) => setTimeout(resolve, 50));
    await forceExpire(db, lease);
    const taken = (await db.query(`SELECT epoch::text FROM leaseboard_acquire($1, 'new-holder', 'other', 60000) WHERE granted`, [lease])).rows[0];
    expect(Number(taken.epoch)).toBeGreaterThan(Number(row.epoch));
    const run = await running;
    expect(run.status).toBe(70);
    expect(run.stderr).toContain(`lost at epoch ${row.epoch}`);
    expect(Date.now() - started, 'the 30 s command was stopped at the next renewal').toBeLessThan(10_000);
  });
});
