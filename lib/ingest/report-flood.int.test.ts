// A flood of made-up report tokens from one client, through the real app/api route and the ingest's own
// pool (4 connections as the schedulers' login) against the run's database, while another client's
// valid reports keep coming: the flood must not take the ingest's connections. A token's shape and the
// client's failure budget are checked before any database work; refusals are logged per client per
// interval, as a count, never a token.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { databaseUrl, uniqueLease, usePool } from '../../db/testing/pools';

vi.mock('server-only', () => ({}));
process.env.DATABASE_URL = databaseUrl();

import * as reportsRoute from '../../app/api/v1/schedulers/[name]/reports/route';
import { enablePeerStamping, PEER_HEADER } from '../http/peer';
import { register } from '../server/testing/seed';
import { mintReportToken } from './tokens';
import { ingestDeps } from './instance';

const stamp = enablePeerStamping();
/** The flood's pace: made-up tokens per 50 ms tick (700 a second, the rate the review saw: 9,793 in 15 s), as long as the valid reports go on. */
const FLOOD_PER_TICK = 35;
const TICK_MS = 50;
const REPORTS = 30;

describe('a flood of made-up report tokens', () => {
  const pool = usePool();
  const name = uniqueLease('flood');
  let token = '';
  let epoch = 0;
  let seq = 0;

  beforeAll(async () => {
    await register(pool, name);
    const granted = await pool.query(`SELECT epoch::float8 AS epoch FROM leaseboard_acquire($1, 'flood-holder', 'flood', 600000) WHERE granted`, [name]);
    epoch = granted.rows[0].epoch;
    const minted = mintReportToken();
    await pool.query(`INSERT INTO report_tokens (id, scheduler, secret_sha256, created_by, created_at) VALUES ($1, $2, $3, 'test', now())`, [
      minted.id,
      name,
      minted.secretSha256,
    ]);
    token = minted.token;
  });
  afterAll(async () => {
    await (ingestDeps().db as unknown as { end(): Promise<void> }).end();
  });

  const post = (from: string, bearer: string, body: unknown) =>
    reportsRoute.POST(
      new Request(`http://leaseboard.test/api/v1/schedulers/${name}/reports`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}`, [PEER_HEADER]: stamp(from) },
        body: JSON.stringify(body),
      }),
      { params: Promise.resolve({ name }) },
    );
  const madeUp = () => `lbr_${randomBytes(6).toString('hex')}.${randomBytes(32).toString('base64url')}`;

  /** `REPORTS` valid reports from 10.0.0.2, one after another: each one's latency in ms. */
  async function validReports(): Promise<number[]> {
    const times: number[] = [];
    for (let i = 0; i < REPORTS; i++) {
      const started = performance.now();
      const answer = await post('10.0.0.2', token, { epoch, seq: ++seq, occurrence: null, cursor: seq, reportEveryMs: 2_000 });
      times.push(performance.now() - started);
      expect(answer.status).toBe(200);
    }
    return times;
  }

  it('another client’s valid reports keep their latency; the flood is refused without database work after the client’s failure budget', async () => {
    const before = summary(await validReports());
    const flood: Promise<Response>[] = [];
    let flooding = true;
    const sender = (async () => {
      while (flooding) {
        for (let i = 0; i < FLOOD_PER_TICK; i++) flood.push(post('10.0.0.1', madeUp(), { epoch, seq: 1, occurrence: null, cursor: 1, reportEveryMs: 2_000 }));
        await new Promise((resolve) => setTimeout(resolve, TICK_MS)); // the flood's pace, not a wait for a condition
      }
    })();
    const during = summary(await validReports());
    flooding = false;
    await sender;
    const statuses = countBy((await Promise.all(flood)).map((answer) => String(answer.status)));
    console.log(
      `valid reports before the flood: p50 ${before.p50.toFixed(1)} ms, p99 ${before.p99.toFixed(1)} ms; during ${flood.length} made-up tokens: p50 ${during.p50.toFixed(1)} ms, p99 ${during.p99.toFixed(1)} ms; flood answers ${JSON.stringify(statuses)}`,
    );
    // Every valid report is stored (validReports). The flooder's first 20 made-up tokens are looked up (its budget), the rest refused
    // unread: the other client's reports wait at most for those few lookups — a few hundred ms on a loaded two-core machine, never the
    // seconds (and connection timeouts, 500) of a queue of thousands.
    expect(during.p50).toBeLessThan(Math.max(3 * before.p50, 60));
    expect(during.p99).toBeLessThan(Math.max(4 * before.p99, 1_000));
    expect(statuses['401'] ?? 0).toBeLessThanOrEqual(20);
    expect(statuses['429']).toBeGreaterThanOrEqual(flood.length - 20);
  });

  it('refusals are logged per client and interval, as a count, never the token', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const bogus = madeUp();
    await post('10.0.0.3', bogus, { epoch, seq: 1, occurrence: null, cursor: 1, reportEveryMs: 2_000 });
    await post('10.0.0.3', madeUp(), { epoch, seq: 1, occurrence: null, cursor: 1, reportEveryMs: 2_000 });
    await post('10.0.0.3', 'not-a-token', { epoch, seq: 1, occurrence: null, cursor: 1, reportEveryMs: 2_000 });
    ingestDeps().refusals.flush();
    const lines = warn.mock.calls.map((call) => String(call[0]));
    warn.mockRestore();
    const line = lines.find((text) => / 3 refused report requests? /.test(text));
    expect(line, lines.join('\n')).toBeDefined();
    expect(line).toMatch(/client-[0-9a-f]{10}/);
    for (const text of lines) {
      expect(text).not.toContain(bogus.slice(4, 16));
      expect(text).not.toContain('10.0.0.3');
    }
  });
});

function summary(times: number[]): { p50: number; p99: number } {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: sorted[sorted.length >> 1]!, p99: sorted[Math.ceil(0.99 * sorted.length) - 1]! };
}

function countBy(values: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}
