// `leaseboard maintenance` as an operator runs it, a real process against real PostgreSQL: a window scheduled for a
// selector opens at once and is listed, cancelled it closes, each change audited with who, why and `cli`; bad input
// (a malformed selector, an end before its start, over 30 days, no reason, an unknown or closed window) exits 2 with
// its reason and writes nothing.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { databaseUrl, usePool } from '../../db/testing/pools';
import { entryArgs } from '../child/json-line-process';
import { runCommand } from './testing/command';

const maintenance = (args: string[]) => runCommand([...entryArgs('lib/cli/main.ts'), 'maintenance', ...args], { DATABASE_URL: databaseUrl() });

describe('leaseboard maintenance', () => {
  const pool = usePool();
  const team = `t-${randomBytes(4).toString('hex')}`;
  const counts = async () =>
    (
      await pool.query<{ windows: number; audit: number }>(
        'SELECT (SELECT count(*) FROM maintenance_windows)::int AS windows, (SELECT count(*) FROM maintenance_audit)::int AS audit',
      )
    ).rows[0]!;
  const auditOf = async (id: number) =>
    (
      await pool.query<{ action: string; by: string; reason: string; identified_by: string }>(
        'SELECT action, by, reason, identified_by FROM maintenance_audit WHERE window_id = $1 ORDER BY id',
        [id],
      )
    ).rows;

  it('schedules a window for a selector, lists it open, and cancels it: each change audited', async () => {
    const created = maintenance(['create', '--selector', `team=${team}`, '--for', '2h', '--by', 'oncall', '--reason', 'database upgrade']);
    expect(created.stderr).toBe('');
    expect(created.status).toBe(0);
    const { action, window } = JSON.parse(created.stdout) as { action: string; window: { id: number; state: string; selector: string; openUntil: string } };
    expect(action).toBe('create');
    expect(window).toMatchObject({ state: 'open', selector: `team=${team}`, weekly: false, by: 'oncall', reason: 'database upgrade' });
    const openForMs = Date.parse(window.openUntil) - Date.now();
    expect(openForMs).toBeGreaterThan(110 * 60_000);
    expect(openForMs).toBeLessThanOrEqual(120 * 60_000);

    const listed = maintenance(['list']);
    expect(listed.status).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`^#${window.id}  open until \\S+  team=${team}  .* by oncall: database upgrade$`, 'm'));
    const json = JSON.parse(maintenance(['list', '--json']).stdout) as { windows: { id: number; state: string }[] };
    expect(json.windows.find((w) => w.id === window.id)?.state).toBe('open');

    const cancelled = maintenance(['cancel', String(window.id), '--by', 'oncall', '--reason', 'upgrade done early']);
    expect(cancelled.status).toBe(0);
    expect(JSON.parse(cancelled.stdout)).toMatchObject({ action: 'cancel', window: { id: window.id, state: 'cancelled' } });
    expect(await auditOf(window.id)).toEqual([
      { action: 'create', by: 'oncall', reason: 'database upgrade', identified_by: 'cli' },
      { action: 'cancel', by: 'oncall', reason: 'upgrade done early', identified_by: 'cli' },
    ]);

    // A closed window cannot change again.
    const again = maintenance(['cancel', String(window.id), '--by', 'oncall', '--reason', 'again']);
    expect(again.status).toBe(2);
    expect(again.stderr).toMatch(`window ${window.id} is cancelled; it cannot change`);
  });

  it.each([
    [['create', '--selector', 'team in (payments', '--for', '1h'], /selector: unclosed "\("/],
    [['create', '--selector', 'team=x', '--from', '2030-01-02T00:00:00Z', '--until', '2030-01-01T00:00:00Z'], /endsAt: must be after startsAt/],
    [['create', '--selector', 'team=x', '--for', '31d'], /endsAt: a window lasts at most 30 days/],
    [['create', '--selector', 'team=x', '--for', '90'], /--for: "90" has no unit/],
    [['create', '--selector', 'team=x', '--scheduler', 'a', '--for', '1h'], /either a selector or a list of schedulers/],
    [['create', '--selector', 'team=x', '--for', '1h', '--until', '2030-01-01T00:00:00Z'], /exactly one of --until TIME or --for DURATION/],
    [['cancel', '999999999999'], /no such maintenance window/],
    [['cancel', 'x1'], /one window number/],
    [['pause'], /say list, create or cancel/],
  ])('refuses %j with exit 2 and writes nothing', async (args, message) => {
    const before = await counts();
    const run = maintenance([...args, '--by', 'oncall', '--reason', 'why']);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(await counts()).toEqual(before);
  });

  it('refuses a change without who or why, before the database is reached', () => {
    const noBy = maintenance(['create', '--selector', 'team=x', '--for', '1h', '--reason', 'why']);
    expect(noBy.status).toBe(2);
    expect(noBy.stderr).toMatch('--by WHO is required');
    const noReason = maintenance(['cancel', '1', '--by', 'oncall']);
    expect(noReason.status).toBe(2);
    expect(noReason.stderr).toMatch(/reason/);
  });
});
