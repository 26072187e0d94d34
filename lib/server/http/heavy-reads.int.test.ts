// Heavy reads never starve the list: through the real route handlers and the
// process-wide service (two read-only pools, the heavy-read cap and the
// per-client limit), against the run's database.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

vi.mock('server-only', () => ({}));
// Not the default 2 s: the case is starvation — a list read queued behind the heavy reads would wait for all the
// admitted ones, well past this — and on the gate's saturated two cores one list read took past 2 s while every
// heavy read was capped (this process's own event loop serves the 200).
const READ_TIMEOUT_MS = 6_000;
process.env.DATABASE_URL = databaseUrl();
process.env.LEASEBOARD_READ_TIMEOUT = `${READ_TIMEOUT_MS}ms`;
process.env.LEASEBOARD_LIST_MAX_AGE = '0s'; // every list call reads the store: nothing is served from a cache
process.env.LEASEBOARD_HEAVY_READS_PER_10S = '40';

import * as detailRoute from '../../../app/api/v1/schedulers/[name]/route';
import * as historyRoute from '../../../app/api/v1/schedulers/[name]/history/route';
import * as listRoute from '../../../app/api/v1/schedulers/route';
import { enablePeerStamping, PEER_HEADER } from '../../http/peer';
import { databaseUrl, uniqueLease, usePool } from '../../../db/testing/pools';
import { closeStatusService } from '../instance';
import { acquire, register, reporter } from '../testing/seed';

const BASE = 'http://leaseboard.test/api/v1/schedulers';
const stamp = enablePeerStamping();
const from = (peer: string) => ({ headers: { [PEER_HEADER]: stamp(peer) } });
const params = (name: string) => ({ params: Promise.resolve({ name }) });

describe('heavy reads and the list', () => {
  const pool = usePool();
  const name = uniqueLease('heavy');

  beforeAll(async () => {
    await register(pool, name);
    const grant = await acquire(pool, name);
    await reporter(pool, grant).report(`${name}@2026-01-01T00:00:00Z`, 1);
    // A day of reports (one every 10 s), so a 24-hour history read has real work to do.
    await pool.query(
      `INSERT INTO progress_reports (lease, epoch, seq, occurrence, cursor, advanced, reported_at)
       SELECT $1, $2, 1000 + g, $1 || '@2026-01-01T00:00:00Z', g, g % 5 = 0, clock_timestamp() - (g * interval '10 seconds')
       FROM generate_series(1, 8640) g`,
      [name, grant.epoch],
    );
  });
  afterAll(() => closeStatusService());

  it('with 200 concurrent 24-hour history reads in flight, every list read answers within the read timeout and observation.ok stays true', async () => {
    const to = new Date().toISOString();
    const fromIso = new Date(Date.now() - 24 * 3_600_000 + 60_000).toISOString();
    const burst = Array.from({ length: 200 }, (_, i) =>
      historyRoute.GET(new Request(`${BASE}/${name}/history?from=${fromIso}&to=${to}`, from(`10.0.${i >> 8}.${i & 255}`)), params(name)),
    );
    const listTimes: number[] = [];
    const observations: boolean[] = [];
    for (let i = 0; i < 20; i++) {
      const started = performance.now();
      const response = await listRoute.GET(new Request(`${BASE}?limit=10`, from('10.9.9.9')));
      listTimes.push(performance.now() - started);
      expect(response.status).toBe(200);
      observations.push(((await response.json()) as { observation: { ok: boolean } }).observation.ok);
    }
    const answers = await Promise.all(burst);
    const statuses = answers.map((response) => response.status);
    const codes = await Promise.all(
      answers.map(async (response) => (response.ok ? 'ok' : ((await response.json()) as { error: { code: string } }).error.code)),
    );
    listTimes.sort((a, b) => a - b);
    const p99 = listTimes[Math.ceil(0.99 * listTimes.length) - 1]!;
    console.log(
      `list during the burst: p50 ${listTimes[listTimes.length >> 1]!.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms; history answers: ${JSON.stringify(countBy(codes))}`,
    );
    // Within the read timeout means observation.ok: the service answers unknown (ok false) for a read past its
    // deadline. The wall time above is printed, not judged: it includes this process's own event loop, busy with
    // the 200 history reads, and on the gate's saturated two cores it reached 2.6 s while every read was in time.
    expect(observations.every(Boolean)).toBe(true);
    // Heavy reads beyond the cap and its queue are refused at once (busy, retry in 1 s); the
    // admitted ones are answered, or time out as any read may on a loaded store — never a 500.
    expect(statuses.every((s) => s === 200 || s === 503)).toBe(true);
    expect(codes.filter((c) => c === 'ok').length).toBeGreaterThan(0);
    const busy = codes.map((code, i) => (code === 'busy' ? i : -1)).filter((i) => i >= 0);
    expect(busy.length).toBeGreaterThanOrEqual(200 - 4 - 32);
    expect(answers[busy[0]!]!.headers.get('retry-after')).toBe('1');
  });

  it('a client past its heavy-read budget gets 429 with Retry-After; other clients are not affected', async () => {
    const answers = [];
    for (let i = 0; i < 45; i++) answers.push(await detailRoute.GET(new Request(`${BASE}/${name}`, from('10.1.1.1')), params(name)));
    const statuses = answers.map((response) => response.status);
    expect(statuses.slice(0, 40).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(40).every((s) => s === 429)).toBe(true);
    const refused = answers[44]!;
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await refused.json()).toMatchObject({ error: { code: 'rate_limited' } });
    expect((await detailRoute.GET(new Request(`${BASE}/${name}`, from('10.1.1.2')), params(name))).status).toBe(200);
  });
});

function countBy(values: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}
