// "Run now" over the real route handler, the run's database and a real scheduler process: an operator's
// request (audited, with a reason) is taken by the holder at its next poll and runs occurrence
// `lease@requested` under its lease; nobody holding the lease, a disabled scheduler, an unknown one, a
// viewer or a missing reason are refused with nothing requested; a request nobody takes expires.
import { beforeAll, describe, expect, it, vi } from 'vitest';

vi.mock('server-only', () => ({}));
const TOKEN = 'e2e-operator-token-0123456789abcdef';
process.env.DATABASE_URL = databaseUrl();
process.env.LEASEBOARD_OPERATOR_TOKEN = TOKEN;

import * as runNowRoute from '../../app/api/v1/schedulers/[name]/run-now/route';
import * as sessionRoute from '../../app/api/v1/session/route';
import { databaseUrl, uniqueLease, usePool } from '../../db/testing/pools';
import { changeIntent, occurrenceKey } from '../lease';
import { useSchedulers } from '../scheduler/testing/fixtures';
import { runsRoute } from '../server/http/handlers';
import { acquire, register, serviceOn } from '../server/testing/seed';
import { readAudit } from '../server/audit/read';
import { latestRunRequest } from './run-now';

const ORIGIN = 'http://leaseboard.test';
const SAME = { host: 'leaseboard.test', origin: ORIGIN, 'sec-fetch-site': 'same-origin', 'x-leaseboard-action': '1', 'content-type': 'application/json' };

let operator = '';
const runNow = (name: string, body: unknown, headers: Record<string, string> = { ...SAME, cookie: operator }) =>
  runNowRoute.POST(new Request(`${ORIGIN}/api/v1/schedulers/${name}/run-now`, { method: 'POST', headers, body: JSON.stringify(body) }), {
    params: Promise.resolve({ name }),
  });

async function errorOf(response: Response) {
  const body = (await response.json()) as { error: { code: string; message: string } };
  return { status: response.status, ...body.error };
}

describe('run now', () => {
  const pool = usePool();
  const spawn = useSchedulers(databaseUrl);
  const requests = async (lease: string) => Number((await pool.query('SELECT count(*) AS n FROM run_requests WHERE lease = $1', [lease])).rows[0].n);

  beforeAll(async () => {
    const signedIn = await sessionRoute.POST(
      new Request(`${ORIGIN}/api/v1/session`, { method: 'POST', headers: SAME, body: JSON.stringify({ token: TOKEN, name: 'carol' }) }),
    );
    expect(signedIn.status).toBe(200);
    operator = signedIn.headers.get('set-cookie')!.split(';')[0]!;
  });

  it('given a holder polling, then it takes the request at once and runs lease@requested under its lease, and the request says so', async () => {
    const lease = uniqueLease('run-now');
    // Hourly: the current hour's occurrence runs at once, then nothing until the next hour but what an operator asks.
    const a = spawn(lease, 'A', { every: 3_600_000, 'batch-size': 2_000, 'batch-work': 10 });
    // Hang guards, not speed checks: beside the gate's other lanes a scheduler's start and occurrence took over 30 s.
    await a.waitFor((line) => line.event === 'occurrence_completed', 90_000);
    const response = await runNow(lease, { reason: 'backfill after the outage' });
    expect(response.status).toBe(202);
    const { request } = (await response.json()) as { request: { requestedAt: string; holder: string; epoch: number; state: string; by: string } };
    expect(request).toMatchObject({ holder: a.token, state: 'pending', by: 'carol' });
    const key = occurrenceKey(lease, new Date(request.requestedAt));
    await a.waitFor((line) => line.event === 'run_now_taken' && line.occurrence === key, 10_000);
    await a.waitFor((line) => line.event === 'occurrence_completed' && line.occurrence === key, 90_000);
    const stored = await latestRunRequest(pool, lease);
    expect(stored).toMatchObject({ state: 'taken', takenEpoch: request.epoch, occurrence: key, reason: 'backfill after the outage' });
    // Within one poll of the request (the idle loop looks every second), on the database clock.
    expect(stored!.takenAt!.getTime() - stored!.requestedAt.getTime()).toBeLessThan(5_000);
    expect((await readAudit(pool, { scheduler: lease, limit: 10 })).entries[0]).toMatchObject({ action: 'scheduler.run_now', to: `taken: ${key}` });
    const occurrence = await pool.query('SELECT state, epoch FROM occurrences WHERE key = $1', [key]);
    expect(occurrence.rows).toEqual([{ state: 'completed', epoch: String(request.epoch) }]);

    // The scheduler's runs: both, newest first, with durations; the next is the next hour's slot.
    const service = serviceOn(pool);
    const runs = await runsRoute(new Request(`${ORIGIN}/api/v1/schedulers/${lease}/runs?limit=5`), lease, () => service);
    expect(runs.status).toBe(200);
    const body = (await runs.json()) as {
      next: { kind: string; at: string; due: boolean };
      runs: { key: string; outcome: string; durationMs: number | null }[];
    };
    expect(body.runs[0]).toMatchObject({ key, outcome: 'completed' });
    expect(body.runs).toHaveLength(2);
    expect(body.runs.every((r) => r.durationMs !== null && r.durationMs >= 0)).toBe(true);
    expect(body.next).toMatchObject({ kind: 'slot', due: false });
    expect(Date.parse(body.next.at) % 3_600_000).toBe(0);
    const unknown = await runsRoute(new Request(`${ORIGIN}/api/v1/schedulers/nobody/runs`), uniqueLease('nobody'), () => service);
    expect(unknown.status).toBe(404);
  });

  it('given nobody holds the lease, a disabled, unknown or misnamed scheduler, a viewer or no reason, then it is refused and nothing is requested', async () => {
    const idle = uniqueLease('run-now-idle');
    await register(pool, idle);
    expect(await errorOf(await runNow(idle, { reason: 'try' }))).toMatchObject({ status: 409, code: 'no_holder' });

    const off = uniqueLease('run-now-off');
    await register(pool, off);
    await acquire(pool, off);
    await changeIntent(pool, off, { disabled: true, by: 'oncall', reason: 'storage migration' });
    expect(await errorOf(await runNow(off, { reason: 'try' }))).toMatchObject({ status: 409, code: 'scheduler_disabled' });

    const held = uniqueLease('run-now-held');
    await register(pool, held);
    await acquire(pool, held);
    expect(await errorOf(await runNow(uniqueLease('nobody'), { reason: 'try' }))).toMatchObject({ status: 404, code: 'unknown_scheduler' });
    expect(await errorOf(await runNow(held, {}))).toMatchObject({ status: 400 });
    expect(await errorOf(await runNow(held, { reason: '   ' }))).toMatchObject({ status: 400 });
    expect(await errorOf(await runNow(held, { reason: 'viewer' }, SAME))).toMatchObject({ status: 403, code: 'forbidden' });
    for (const lease of [idle, off, held]) expect(await requests(lease)).toBe(0);
  });

  it('given a request nobody takes, then a second is refused while it is pending, and once expired it is shown expired and a new one is accepted', async () => {
    const lease = uniqueLease('run-now-expire');
    await register(pool, lease);
    await acquire(pool, lease, 60_000); // held, with no runtime to take the request
    expect((await runNow(lease, { reason: 'first' })).status).toBe(202);
    expect(await errorOf(await runNow(lease, { reason: 'second' }))).toMatchObject({ status: 409, code: 'run_pending' });
    expect(await latestRunRequest(pool, lease)).toMatchObject({ state: 'pending', takenAt: null });
    // Its deadline passes (moved, not waited for: two minutes).
    await pool.query(`UPDATE run_requests SET expires_at = clock_timestamp() - interval '1 second' WHERE lease = $1`, [lease]);
    expect(await latestRunRequest(pool, lease)).toMatchObject({ state: 'expired', takenAt: null, occurrence: null });
    expect((await runNow(lease, { reason: 'again' })).status).toBe(202);
    expect(await requests(lease)).toBe(2);
    // The audit trail shows both, newest first, each with its state now.
    const { entries } = await readAudit(pool, { scheduler: lease, limit: 10 });
    expect(entries.map((e) => [e.action, e.who, e.reason, e.to])).toEqual([
      ['scheduler.run_now', 'carol', 'again', 'pending'],
      ['scheduler.run_now', 'carol', 'first', 'expired'],
    ]);
  });
});
