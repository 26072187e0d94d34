// Reports over HTTP through the real app/api route handlers and the run's
// database: report tokens minted and revoked by an operator (audited, bounded,
// shown once); every refusal answers with its status and stores nothing; two
// clients racing with different epochs — only the current one lands.
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { databaseUrl, forceExpire, uniqueLease, usePool } from '../../db/testing/pools';

vi.mock('server-only', () => ({}));
const OPERATOR_TOKEN = 'e2e-operator-token-0123456789abcdef';
process.env.DATABASE_URL = databaseUrl();
process.env.LEASEBOARD_OPERATOR_TOKEN = OPERATOR_TOKEN;

import * as auditRoute from '../../app/api/v1/audit/route';
import * as tokenRoute from '../../app/api/v1/schedulers/[name]/report-tokens/route';
import * as revokeRoute from '../../app/api/v1/schedulers/[name]/report-tokens/[id]/route';
import * as reportsRoute from '../../app/api/v1/schedulers/[name]/reports/route';
import * as sessionRoute from '../../app/api/v1/session/route';
import { register } from '../server/testing/seed';
import { parseProxyTrust } from '../http/proxies';
import { tokenRefusals } from '../http/token-refusals';
import { reportRoute } from './report-route';
import { REPORT_TOKENS_PER_SCHEDULER } from './tokens';

const ORIGIN = 'http://leaseboard.test';
const SAME = { host: 'leaseboard.test', origin: ORIGIN, 'sec-fetch-site': 'same-origin', 'x-leaseboard-action': '1', 'content-type': 'application/json' };
const request = (path: string, headers: Record<string, string>, body: unknown, method = 'POST') =>
  new Request(`${ORIGIN}${path}`, { method, headers, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
const params = <T>(value: T) => ({ params: Promise.resolve(value) });

describe('reports over HTTP', () => {
  const pool = usePool();
  let operator: Record<string, string>;

  beforeAll(async () => {
    const signedIn = await sessionRoute.POST(request('/api/v1/session', SAME, { token: OPERATOR_TOKEN, name: 'dana' }));
    expect(signedIn.status).toBe(200);
    operator = { ...SAME, cookie: signedIn.headers.get('set-cookie')!.split(';')[0]! };
  });

  async function scheduler(prefix: string): Promise<{ name: string; epoch: number; token: string; id: string }> {
    const name = uniqueLease(prefix);
    await register(pool, name);
    const granted = await pool.query(`SELECT epoch::float8 AS epoch FROM leaseboard_acquire($1, 'http-holder', 'http', 60000) WHERE granted`, [name]);
    const made = await tokenRoute.POST(
      request(`/api/v1/schedulers/${name}/report-tokens`, operator, { reason: 'nightly export reports over HTTP' }),
      params({ name }),
    );
    expect(made.status).toBe(201);
    const { token, id } = (await made.json()) as { token: string; id: string };
    return { name, epoch: granted.rows[0].epoch, token, id };
  }
  const report = (name: string, token: string | null, body: unknown) =>
    reportsRoute.POST(
      request(`/api/v1/schedulers/${name}/reports`, { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body),
      params({ name }),
    );
  const stored = async (name: string) => {
    const { rows } = await pool.query(
      `SELECT (SELECT COALESCE(sum(COALESCE(last_seq, seq) - seq + 1), 0)::int FROM progress_reports WHERE lease = $1) AS reports,
              (SELECT last_seq FROM progress_summaries WHERE lease = $1) AS last_seq,
              (SELECT cursor::float8 FROM progress_summaries WHERE lease = $1) AS cursor`,
      [name],
    );
    return rows[0] as { reports: number; last_seq: number | null; cursor: number | null };
  };
  const errorOf = async (response: Response) => ({ status: response.status, ...((await response.json()) as { error: Record<string, unknown> }).error });

  it('a report with the scheduler’s token and current epoch is stored by the protocol function; the same seq again is a retry', async () => {
    const s = await scheduler('http-ok');
    const first = await report(s.name, s.token, { epoch: s.epoch, seq: 1, occurrence: 'export-1', cursor: 10, reportEveryMs: 2000 });
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ stored: true, advanced: true });
    const again = await report(s.name, s.token, { epoch: s.epoch, seq: 1, occurrence: 'export-1', cursor: 10, reportEveryMs: 2000 });
    expect(await again.json()).toEqual({ stored: false, advanced: false, reportedAt: null });
    const jump = await report(s.name, s.token, { epoch: s.epoch, seq: 3, occurrence: 'export-1', cursor: 20, reportEveryMs: 2000 });
    expect(jump.status).toBe(200);
    expect(await stored(s.name)).toEqual({ reports: 2, last_seq: 3, cursor: 20 });
    const gap = await pool.query('SELECT gap_reason FROM progress_summaries WHERE lease = $1', [s.name]);
    expect(gap.rows[0].gap_reason, 'a jump in seq is lost reports, as for any report').toBe('lost_reports');
    const used = await pool.query('SELECT last_used_at IS NOT NULL AS used FROM report_tokens WHERE id = $1', [s.id]);
    expect(used.rows[0].used).toBe(true);
  });

  it('a report may declare the scheduler’s labels (as a registration does); bad labels are a 400 and store nothing; an operator’s labels still win', async () => {
    const s = await scheduler('http-labels');
    const labels = async () =>
      (
        await pool.query<{ labels: object; declared: object }>(
          'SELECT COALESCE(o.labels, s.labels) AS labels, s.labels AS declared FROM schedulers s LEFT JOIN label_overrides o ON o.name = s.name WHERE s.name = $1',
          [s.name],
        )
      ).rows[0]!;
    const valid = { epoch: s.epoch, seq: 1, occurrence: null, cursor: null, reportEveryMs: 2000 };
    expect((await report(s.name, s.token, { ...valid, labels: { team: 'payments', env: 'prod' } })).status).toBe(200);
    expect((await labels()).labels).toEqual({ env: 'prod', team: 'payments' });
    const bad = await report(s.name, s.token, { ...valid, seq: 2, labels: { team: 'pay ments' } });
    expect(await errorOf(bad)).toMatchObject({ status: 400, code: 'invalid_body', message: expect.stringContaining('label "team"') });
    expect(await stored(s.name)).toMatchObject({ reports: 1, last_seq: 1 });
    const tooMany = Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`k${i}`, 'v']));
    expect(await errorOf(await report(s.name, s.token, { ...valid, seq: 2, labels: tooMany }))).toMatchObject({ status: 400, code: 'invalid_body' });
    // Without labels, a report leaves them as they are.
    expect((await report(s.name, s.token, { ...valid, seq: 2 })).status).toBe(200);
    expect((await labels()).labels).toEqual({ env: 'prod', team: 'payments' });
    await pool.query(`INSERT INTO label_overrides (name, labels, by, reason, at) VALUES ($1, '{"team": "search"}', 'dana', 'moved', now())`, [s.name]);
    expect((await report(s.name, s.token, { ...valid, seq: 3, labels: { team: 'payments' } })).status).toBe(200);
    expect(await labels()).toEqual({ labels: { team: 'search' }, declared: { team: 'payments' } });
  });

  it('every refusal answers with its status and stores nothing', async () => {
    const s = await scheduler('http-refused');
    const other = await scheduler('http-other');
    expect((await report(s.name, s.token, { epoch: s.epoch, seq: 1, occurrence: 'o', cursor: 50, reportEveryMs: 2000 })).status).toBe(200);
    const before = await stored(s.name);
    const wrongSecret = `${s.token.slice(0, -4)}AAAA`;
    const valid = { epoch: s.epoch, seq: 2, occurrence: 'o', cursor: 60, reportEveryMs: 2000 };
    const refusals: [Response, Record<string, unknown>][] = [
      [await report(s.name, null, valid), { status: 401, code: 'unauthorized' }],
      [await report(s.name, 'not-a-token', valid), { status: 401, code: 'unauthorized' }],
      [await report(s.name, wrongSecret, valid), { status: 401, code: 'unauthorized' }],
      [await report(s.name, other.token, valid), { status: 401, code: 'unauthorized' }],
      [await report(s.name, s.token, { ...valid, epoch: s.epoch + 1 }), { status: 409, code: 'stale_epoch', currentEpoch: s.epoch }],
      [await report(s.name, s.token, { ...valid, seq: 0 }), { status: 400, code: 'invalid_body' }],
      [await report(s.name, s.token, { ...valid, extra: true }), { status: 400, code: 'invalid_body' }],
      [await report(s.name, s.token, '{"epoch":'), { status: 400, code: 'invalid_body' }],
      [await report(s.name, s.token, { ...valid, occurrence: 'x'.repeat(20_000) }), { status: 413, code: 'too_large' }],
      [await report(s.name, s.token, { ...valid, cursor: 49 }), { status: 400, code: 'cursor_backwards' }],
    ];
    expect((await report(s.name, s.token, { ...valid, seq: 5 })).status).toBe(200);
    const after5 = await stored(s.name);
    refusals.push([await report(s.name, s.token, { ...valid, seq: 4, cursor: 70 }), { status: 400, code: 'invalid_seq' }]);
    for (const [response, expected] of refusals) expect(await errorOf(response)).toMatchObject(expected);
    expect(refusals[0]![0].headers.get('www-authenticate')).toBe('Bearer');
    expect(after5).toEqual({ reports: before.reports + 1, last_seq: 5, cursor: 60 });
    expect(await stored(s.name)).toEqual(after5);
  });

  it('two clients racing with different epochs: only the current one lands', async () => {
    const s = await scheduler('http-race');
    await forceExpire(pool, s.name);
    const taken = await pool.query(`SELECT epoch::float8 AS epoch FROM leaseboard_acquire($1, 'new-holder', 'http', 60000) WHERE granted`, [s.name]);
    const current = taken.rows[0].epoch as number;
    // Each client sends its own stream in order; the two streams interleave.
    const client = async (epoch: number) => {
      const statuses: number[] = [];
      for (let seq = 1; seq <= 5; seq++)
        statuses.push((await report(s.name, s.token, { epoch, seq, occurrence: null, cursor: null, reportEveryMs: 2000 })).status);
      return statuses;
    };
    const [stale, fresh] = await Promise.all([client(s.epoch), client(current)]);
    expect(stale).toEqual([409, 409, 409, 409, 409]);
    expect(fresh).toEqual([200, 200, 200, 200, 200]);
    const epochs = await pool.query('SELECT DISTINCT epoch::float8 AS epoch FROM progress_reports WHERE lease = $1', [s.name]);
    expect(epochs.rows.map((r) => r.epoch)).toEqual([current]);
  });

  it('tokens: minted by operators only, at most five per scheduler, revoked for good, each change audited', async () => {
    const s = await scheduler('http-tokens');
    const viewer = await tokenRoute.POST(request(`/api/v1/schedulers/${s.name}/report-tokens`, SAME, { reason: 'viewer try' }), params({ name: s.name }));
    expect(await errorOf(viewer)).toMatchObject({ status: 403, code: 'forbidden' });
    const noReason = await tokenRoute.POST(request(`/api/v1/schedulers/${s.name}/report-tokens`, operator, { reason: ' ' }), params({ name: s.name }));
    expect(await errorOf(noReason)).toMatchObject({ status: 400, code: 'invalid_body' });
    const unknown = await tokenRoute.POST(
      request('/api/v1/schedulers/nobody-here/report-tokens', operator, { reason: 'typo' }),
      params({ name: 'nobody-here' }),
    );
    expect(await errorOf(unknown)).toMatchObject({ status: 404, code: 'unknown_scheduler' });
    for (let i = 1; i < REPORT_TOKENS_PER_SCHEDULER; i++) {
      const more = await tokenRoute.POST(request(`/api/v1/schedulers/${s.name}/report-tokens`, operator, { reason: `token ${i}` }), params({ name: s.name }));
      expect(more.status).toBe(201);
    }
    const sixth = await tokenRoute.POST(request(`/api/v1/schedulers/${s.name}/report-tokens`, operator, { reason: 'one too many' }), params({ name: s.name }));
    expect(await errorOf(sixth)).toMatchObject({ status: 409, code: 'too_many_tokens' });
    const stored = await pool.query('SELECT secret_sha256 FROM report_tokens WHERE id = $1', [s.id]);
    expect(stored.rows[0].secret_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(s.token).not.toContain(stored.rows[0].secret_sha256);

    const revoke = (id: string) =>
      revokeRoute.DELETE(
        request(`/api/v1/schedulers/${s.name}/report-tokens/${id}`, operator, { reason: 'leaked in a log' }, 'DELETE'),
        params({ name: s.name, id }),
      );
    expect((await revoke(s.id)).status).toBe(200);
    expect(await errorOf(await revoke(s.id))).toMatchObject({ status: 404, code: 'not_found' });
    expect(await errorOf(await report(s.name, s.token, { epoch: s.epoch, seq: 1, occurrence: null, cursor: null, reportEveryMs: 2000 }))).toMatchObject({
      status: 401,
    });

    const audit = await auditRoute.GET(new Request(`${ORIGIN}/api/v1/audit?scheduler=${s.name}`));
    const entries = ((await audit.json()) as { entries: { action: string; who: string; reason: string; target: string }[] }).entries;
    expect(entries.filter((e) => e.action === 'report_token.create')).toHaveLength(REPORT_TOKENS_PER_SCHEDULER);
    expect(entries.find((e) => e.action === 'report_token.revoke')).toMatchObject({ who: 'dana', reason: 'leaked in a log', target: `report token ${s.id}` });
  });

  it('at most the limiter’s reports per token (429 with Retry-After), counted only after the token is proven', async () => {
    const s = await scheduler('http-limit');
    const deps = { db: pool, limiter: new RateLimiterMemory({ points: 2, duration: 60 }), refusals: tokenRefusals('report'), trust: parseProxyTrust({}) };
    const post = (token: string, seq: number) =>
      reportRoute(
        request(
          `/api/v1/schedulers/${s.name}/reports`,
          { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          {
            epoch: s.epoch,
            seq,
            occurrence: null,
            cursor: null,
            reportEveryMs: 2000,
          },
        ),
        s.name,
        deps,
      );
    for (let i = 0; i < 5; i++) expect((await post(`${s.token.slice(0, -4)}AAAA`, 1)).status).toBe(401); // spends nothing
    expect((await post(s.token, 1)).status).toBe(200);
    expect((await post(s.token, 2)).status).toBe(200);
    const limited = await post(s.token, 3);
    expect(await errorOf(limited)).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await stored(s.name)).last_seq).toBe(2);
  });
});
