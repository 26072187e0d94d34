// "Recovery never overrides an explicit user decision": an operator disables a
// scheduler, then everything automatic happens to it — its processes restart,
// a fresh instance tries to take over, the retention pruner and the alert
// evaluator run their rounds (with the intent and its audit backdated past
// every retention). The choice stands through all of it, untouched; only an
// operator's action enables the scheduler again. Real processes, a real
// database, the real jobs.
import { describe, expect, it } from 'vitest';
import { databaseUrl, uniqueLease, usePool } from '../../db/testing/pools';
import { parseAlertConfig } from '../alerts';
import { changeIntent } from '../lease';
import { DEFAULT_RETENTION } from '../retention';
import { createReadOnlyPool, type Job } from '../scheduler';
import { leaseRow, poll, runOneOccurrence, useSchedulers } from '../scheduler/testing/fixtures';
import { alertEvaluatorJob } from './alert-evaluator';
import { retentionPrunerJob } from './retention-pruner';

describe('automation never overturns an operator’s choice', () => {
  const pool = usePool();
  const spawn = useSchedulers(databaseUrl);

  /** One round of `job` under a test-unique lease, in this process. */
  async function oneRound(job: Job): Promise<void> {
    const readDb = createReadOnlyPool(databaseUrl(), { applicationName: 'leaseboard-test-read' });
    const events = await runOneOccurrence(job, uniqueLease(job.name), { db: pool, readDb }).finally(async () => {
      await job.close?.();
      await readDb.end();
    });
    expect(events.filter((e) => e.event === 'error')).toEqual([]);
  }

  it('a disabled scheduler stays disabled through restarts, a takeover attempt, the pruner and the alert evaluator; only an operator enables it', async () => {
    const lease = uniqueLease('choice');
    const quick = { 'batch-size': 2_000, 'batch-work': 10 };
    const a = spawn(lease, 'A', quick);
    await a.waitFor((line) => line.event === 'acquired');
    const b = spawn(lease, 'B', quick);
    await b.waitFor((line) => line.event === 'held');

    const disabled = await changeIntent(pool, lease, { disabled: true, by: 'oncall', reason: 'storage migration' }, { expectDisabled: false });
    expect(disabled.kind).toBe('changed');
    await a.waitFor((line) => line.event === 'released');
    await b.waitFor((line) => line.event === 'disabled', 10_000);

    // Restarts: both processes stop; two fresh instances (new tokens) try to acquire.
    expect(await a.stop()).toBe(0);
    expect(await b.stop()).toBe(0);
    const c = spawn(lease, 'C', quick);
    const d = spawn(lease, 'D', quick);
    await c.waitFor((line) => line.event === 'disabled', 10_000);
    await d.waitFor((line) => line.event === 'disabled', 10_000);

    // The choice and its audit, backdated past every retention: the housekeeping jobs must still leave them be.
    await pool.query(`UPDATE scheduler_intents SET at = at - interval '400 days' WHERE lease = $1`, [lease]);
    await pool.query(`UPDATE intent_audit SET at = at - interval '400 days' WHERE lease = $1`, [lease]);
    const snapshot = async () => ({
      intent: (await pool.query(`SELECT disabled, by, reason, at FROM scheduler_intents WHERE lease = $1`, [lease])).rows,
      audit: (await pool.query(`SELECT disabled, by, reason, at FROM intent_audit WHERE lease = $1 ORDER BY id`, [lease])).rows,
    });
    const chosen = await snapshot();
    expect(chosen.intent).toEqual([expect.objectContaining({ disabled: true, by: 'oncall', reason: 'storage migration' })]);
    expect(chosen.audit).toHaveLength(1);

    await oneRound(retentionPrunerJob(DEFAULT_RETENTION));
    await oneRound(alertEvaluatorJob({ config: parseAlertConfig({}) }));

    expect(await snapshot()).toEqual(chosen);
    expect((await leaseRow(pool, lease))!.live).toBe(false);
    expect([...c.lines, ...d.lines].filter((line) => line.event === 'acquired')).toEqual([]);

    // Only an operator's action enables it again; then an instance acquires.
    const enabled = await changeIntent(pool, lease, { disabled: false, by: 'oncall', reason: 'migration done' }, { expectDisabled: true });
    expect(enabled.kind).toBe('changed');
    await poll(
      () => leaseRow(pool, lease),
      (row) => !!row?.live,
      15_000,
    );
    expect((await snapshot()).audit.map((row: { disabled: boolean; by: string }) => [row.disabled, row.by])).toEqual([
      [true, 'oncall'],
      [false, 'oncall'],
    ]);
  });
});
