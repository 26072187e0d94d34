// Fleet-wide operator actions over the real app/api route handlers and the
// run's database: maintenance windows (create, list, edit, cancel; bad input
// a 400 with nothing changed; every change audited; the open-window cap),
// disable/enable by label selector (one audit row per scheduler changed; a
// selector matching nothing is a 400 and changes nothing), a team's owner
// details, and what the detail and alerts answers say of a window and an owner.
import { beforeAll, describe, expect, it, vi } from 'vitest';

vi.mock('server-only', () => ({}));
const TOKEN = 'int-operator-token-0123456789abcdef';
process.env.DATABASE_URL = databaseUrl();
process.env.LEASEBOARD_OPERATOR_TOKEN = TOKEN;

import * as bulkIntentRoute from '../../app/api/v1/bulk/intent/route';
import * as windowRoute from '../../app/api/v1/maintenance-windows/[id]/route';
import * as windowsRoute from '../../app/api/v1/maintenance-windows/route';
import * as sessionRoute from '../../app/api/v1/session/route';
import * as teamOwnerRoute from '../../app/api/v1/teams/[team]/owner/route';
import type { MaintenanceChangeResponse, MaintenanceListResponse } from '../api/types';
import { databaseUrl, uniqueLease, usePool } from '../../db/testing/pools';
import { changeLabels } from './labels';
import { register } from '../server/testing/seed';
import { serviceOn } from '../server/testing/seed';
import { MAINTENANCE_OPEN_MAX } from '../limits/maintenance';
import { readAudit } from '../server/audit/read';

const ORIGIN = 'http://leaseboard.test';
const SAME = { host: 'leaseboard.test', origin: ORIGIN, 'sec-fetch-site': 'same-origin', 'x-leaseboard-action': '1', 'content-type': 'application/json' };
let cookie = '';
const operator = () => ({ ...SAME, cookie });

const request = (path: string, method: string, body?: unknown, headers: Record<string, string> = operator()) =>
  new Request(`${ORIGIN}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
const params = <T>(value: T) => ({ params: Promise.resolve(value) });
const createWindow = (body: unknown) => windowsRoute.POST(request('/api/v1/maintenance-windows', 'POST', body));
const editWindow = (id: number, body: unknown) => windowRoute.PUT(request(`/api/v1/maintenance-windows/${id}`, 'PUT', body), params({ id: String(id) }));
const cancelWindow = (id: number, body: unknown) =>
  windowRoute.DELETE(request(`/api/v1/maintenance-windows/${id}`, 'DELETE', body), params({ id: String(id) }));
const listWindows = async () =>
  (await (await windowsRoute.GET(request('/api/v1/maintenance-windows', 'GET', undefined, {}))).json()) as MaintenanceListResponse;
const bulkIntent = (body: unknown) => bulkIntentRoute.POST(request('/api/v1/bulk/intent', 'POST', body));

async function errorOf(response: Response) {
  const body = (await response.json()) as { error: { code: string; message: string } };
  return { status: response.status, ...body.error };
}

const iso = (ms: number) => new Date(ms).toISOString();
const HOUR = 3_600_000;

describe('fleet operator actions', () => {
  const pool = usePool();
  const windowCount = async () => (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM maintenance_windows')).rows[0]!.n;
  const auditOf = async (id: number) =>
    (await pool.query('SELECT action, by, identified_by, reason, to_window FROM maintenance_audit WHERE window_id = $1 ORDER BY id', [id])).rows;
  /** A scheduler labelled team=<team> by an operator. */
  const labelled = async (team: string, extra: Record<string, string> = {}) => {
    const name = uniqueLease(team);
    await register(pool, name);
    const changed = await changeLabels(pool, name, { labels: { team, ...extra }, by: 'tester', reason: 'setup' }, { identifiedBy: 'cli' });
    expect(changed.kind).toBe('changed');
    return name;
  };

  beforeAll(async () => {
    const signedIn = await sessionRoute.POST(request('/api/v1/session', 'POST', { token: TOKEN, name: 'dora' }, SAME));
    expect(signedIn.status).toBe(200);
    cookie = signedIn.headers.get('set-cookie')!.split(';')[0]!;
  });

  describe('maintenance windows', () => {
    it.each([
      {
        why: 'an end before its start',
        body: { selector: 'team=x', startsAt: iso(Date.now() + HOUR), endsAt: iso(Date.now()) },
        says: 'endsAt: must be after startsAt',
      },
      {
        why: 'a window over 30 days',
        body: { selector: 'team=x', startsAt: iso(Date.now()), endsAt: iso(Date.now() + 31 * 24 * HOUR) },
        says: 'at most 30 days',
      },
      {
        why: 'a weekly window of 7 days',
        body: { selector: 'team=x', startsAt: iso(Date.now()), endsAt: iso(Date.now() + 7 * 24 * HOUR), weekly: true },
        says: 'less than 7 days',
      },
      { why: 'a malformed selector', body: { selector: 'team in (a', startsAt: iso(Date.now()), endsAt: iso(Date.now() + HOUR) }, says: 'unclosed' },
      { why: 'an empty selector', body: { selector: ' ', startsAt: iso(Date.now()), endsAt: iso(Date.now() + HOUR) }, says: 'empty' },
      {
        why: 'both a selector and names',
        body: { selector: 'team=x', schedulers: ['a'], startsAt: iso(Date.now()), endsAt: iso(Date.now() + HOUR) },
        says: 'not both',
      },
      { why: 'no reason', body: { selector: 'team=x', startsAt: iso(Date.now()), endsAt: iso(Date.now() + HOUR) }, says: 'reason' },
      { why: 'an end already past', body: { selector: 'team=x', startsAt: iso(Date.now() - 2 * HOUR), endsAt: iso(Date.now() - HOUR) }, says: 'already past' },
      { why: 'a time that is not ISO', body: { selector: 'team=x', startsAt: 'tonight', endsAt: iso(Date.now() + HOUR) }, says: 'ISO-8601' },
    ])('$why: 400 naming it, and nothing stored or audited', async ({ body, says }) => {
      const before = await windowCount();
      const auditBefore = (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM maintenance_audit')).rows[0]!.n;
      const withReason = says === 'reason' ? body : { ...body, reason: 'db upgrade' };
      const answer = await errorOf(await createWindow(withReason));
      expect(answer).toMatchObject({ status: 400, code: 'invalid_body' });
      expect(answer.message).toContain(says);
      expect(await windowCount()).toBe(before);
      expect((await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM maintenance_audit')).rows[0]!.n).toBe(auditBefore);
    });

    it('created, listed, edited and cancelled, each audited with who, how identified and why; a cancelled window cannot change again', async () => {
      const team = uniqueLease('wteam');
      const created = await createWindow({
        selector: `team=${team}`,
        startsAt: iso(Date.now() + HOUR),
        endsAt: iso(Date.now() + 3 * HOUR),
        reason: 'db upgrade',
      });
      expect(created.status).toBe(201);
      const { window } = (await created.json()) as MaintenanceChangeResponse;
      expect(window).toMatchObject({ selector: `team=${team}`, schedulers: null, weekly: false, reason: 'db upgrade', by: 'dora', state: 'scheduled' });
      expect((await listWindows()).windows.find((w) => w.id === window.id)?.state).toBe('scheduled');

      const edited = await editWindow(window.id, {
        selector: `team=${team}`,
        startsAt: iso(Date.now() - 60_000),
        endsAt: iso(Date.now() + HOUR),
        weekly: true,
        reason: 'moved earlier',
      });
      expect(edited.status).toBe(200);
      const afterEdit = (await edited.json()) as MaintenanceChangeResponse;
      expect(afterEdit.from?.state).toBe('scheduled');
      expect(afterEdit.window).toMatchObject({ state: 'open', weekly: true, reason: 'moved earlier' });
      expect(afterEdit.window.openUntil).not.toBeNull();

      const cancelled = await cancelWindow(window.id, { reason: 'done early' });
      expect(cancelled.status).toBe(200);
      expect(((await cancelled.json()) as MaintenanceChangeResponse).window.state).toBe('cancelled');
      expect(await errorOf(await cancelWindow(window.id, { reason: 'again' }))).toMatchObject({ status: 409, code: 'window_closed' });
      expect(
        await errorOf(await editWindow(window.id, { selector: 'team=y', startsAt: iso(Date.now()), endsAt: iso(Date.now() + HOUR), reason: 'x' })),
      ).toMatchObject({
        status: 409,
        code: 'window_closed',
      });
      expect(await errorOf(await cancelWindow(999_999_999, { reason: 'none' }))).toMatchObject({ status: 404, code: 'unknown_window' });

      const audit = await auditOf(window.id);
      expect(audit.map((a) => [a.action, a.by, a.identified_by, a.reason])).toEqual([
        ['create', 'dora', 'token', 'db upgrade'],
        ['edit', 'dora', 'token', 'moved earlier'],
        ['cancel', 'dora', 'token', 'done early'],
      ]);
      // Shown in the audit trail, as every operator action.
      const trail = await readAudit(pool, { scheduler: null, limit: 500 });
      expect(trail.entries.filter((e) => e.target === `maintenance window #${window.id}`).map((e) => [e.action, e.who, e.reason])).toEqual([
        ['maintenance.cancel', 'dora', 'done early'],
        ['maintenance.edit', 'dora', 'moved earlier'],
        ['maintenance.create', 'dora', 'db upgrade'],
      ]);
    });

    it('a scheduler the window covers reads in maintenance beside an unchanged health, and its owner; after the window, nothing', async () => {
      const team = uniqueLease('mteam');
      const name = await labelled(team);
      const service = serviceOn(pool);
      const before = await service.detail(name);
      expect(before.ok && before.value.maintenance).toBe(null);
      const owner = await teamOwnerRoute.PUT(
        request(`/api/v1/teams/${team}/owner`, 'PUT', { contact: '#payments-oncall', runbookUrl: 'https://wiki.example/payments', reason: 'on call rota' }),
        params({ team }),
      );
      expect(owner.status).toBe(200);
      const created = (await (
        await createWindow({ selector: `team=${team}`, startsAt: iso(Date.now() - 60_000), endsAt: iso(Date.now() + HOUR), reason: 'db upgrade' })
      ).json()) as MaintenanceChangeResponse;
      const during = await service.detail(name);
      if (!during.ok || !before.ok) throw new Error('detail read failed');
      expect(during.value.maintenance).toMatchObject({ window: created.window.id, reason: 'db upgrade', by: 'dora' });
      expect(during.value.status.health).toBe(before.value.status.health);
      expect(during.value.owner).toEqual({ team, contact: '#payments-oncall', runbookUrl: 'https://wiki.example/payments' });
      await cancelWindow(created.window.id, { reason: 'done' });
      const after = await service.detail(name);
      expect(after.ok && after.value.maintenance).toBe(null);
    });

    it('closed windows are kept 7 days for the list, then the next create deletes them (their audit rows stay)', async () => {
      // The 100 most recent closed windows are kept whatever their age: files before this one in the worker's
      // database (the contract test closes 100 at once) would push this test's recent window past that bound.
      await pool.query('DELETE FROM maintenance_windows WHERE cancelled_at IS NOT NULL OR (NOT weekly AND ends_at <= now())');
      const insert = (cancelledAgo: string, endedAgo: string) =>
        pool.query<{ id: number }>(
          `INSERT INTO maintenance_windows (schedulers, starts_at, ends_at, reason, by, created_at, updated_at, cancelled_at)
           VALUES ('{old}', now() - $2::interval - interval '1 hour', now() - $2::interval, 'old', 'tester', now() - interval '9 days', now(),
                   CASE WHEN $1::text = '' THEN NULL ELSE now() - $1::interval END) RETURNING id::int`,
          [cancelledAgo, endedAgo],
        );
      const oldCancelled = (await insert('8 days', '1 hour')).rows[0]!.id;
      const oldEnded = (await insert('', '8 days')).rows[0]!.id;
      const recent = (await insert('1 day', '1 hour')).rows[0]!.id;
      const made = await createWindow({ schedulers: ['prune'], startsAt: iso(Date.now()), endsAt: iso(Date.now() + HOUR), reason: 'prune test' });
      expect(made.status).toBe(201);
      const left = await pool.query<{ id: number }>('SELECT id::int FROM maintenance_windows WHERE id = ANY($1)', [[oldCancelled, oldEnded, recent]]);
      expect(left.rows.map((r) => r.id)).toEqual([recent]);
      await cancelWindow(((await made.json()) as MaintenanceChangeResponse).window.id, { reason: 'prune test done' });
    });

    it(`at most ${MAINTENANCE_OPEN_MAX} windows open or to come: the next is refused (409) and nothing stored`, async () => {
      const open = (
        await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM maintenance_windows WHERE cancelled_at IS NULL AND (weekly OR ends_at > now())')
      ).rows[0]!.n;
      const ids: number[] = [];
      for (let i = open; i < MAINTENANCE_OPEN_MAX; i++) {
        const r = await createWindow({ schedulers: [`cap-${i}`], startsAt: iso(Date.now() + HOUR), endsAt: iso(Date.now() + 2 * HOUR), reason: 'cap' });
        expect(r.status).toBe(201);
        ids.push(((await r.json()) as MaintenanceChangeResponse).window.id);
      }
      const before = await windowCount();
      expect(
        await errorOf(await createWindow({ schedulers: ['one-more'], startsAt: iso(Date.now() + HOUR), endsAt: iso(Date.now() + 2 * HOUR), reason: 'cap' })),
      ).toMatchObject({
        status: 409,
        code: 'too_many_windows',
      });
      expect(await windowCount()).toBe(before);
      for (const id of ids) expect((await cancelWindow(id, { reason: 'cap test done' })).status).toBe(200);
    });
  });

  describe('disable and enable by selector', () => {
    it('one reason for all, one audit row per scheduler changed; again: 409, nothing written', async () => {
      const team = uniqueLease('bteam');
      const a = await labelled(team, { env: 'prod' });
      const b = await labelled(team, { env: 'prod' });
      const c = await labelled(team, { env: 'dev' });
      const response = await bulkIntent({ selector: `team=${team},env=prod`, disabled: true, reason: 'db upgrade tonight' });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { changed: string[]; unchanged: string[]; to: string };
      expect(body).toMatchObject({ to: 'disabled', changed: [a, b].sort(), unchanged: [] });
      const audit = await pool.query('SELECT lease, disabled, by, identified_by, reason FROM intent_audit WHERE lease = ANY($1) ORDER BY lease', [[a, b, c]]);
      expect(audit.rows).toEqual([a, b].sort().map((lease) => ({ lease, disabled: true, by: 'dora', identified_by: 'token', reason: 'db upgrade tonight' })));
      expect(await errorOf(await bulkIntent({ selector: `team=${team},env=prod`, disabled: true, reason: 'again' }))).toMatchObject({
        status: 409,
        code: 'no_change',
      });
      const enabled = await bulkIntent({ selector: `team=${team}`, disabled: false, reason: 'upgrade done' });
      expect(((await enabled.json()) as { changed: string[] }).changed).toEqual([a, b, c].sort());
      expect((await pool.query('SELECT count(*)::int AS n FROM intent_audit WHERE lease = ANY($1)', [[a, b, c]])).rows[0].n).toBe(5);
    });

    it.each([
      { why: 'a selector that matches nothing', selector: () => `team=${uniqueLease('nobody')}`, status: 400, code: 'nothing_matched' },
      { why: 'a malformed selector', selector: () => 'team in (a', status: 400, code: 'invalid_body' },
      { why: 'an empty selector (everything)', selector: () => '', status: 400, code: 'invalid_body' },
    ])('$why: $status $code, nothing changed', async ({ selector, status, code }) => {
      const before = (await pool.query('SELECT count(*)::int AS n FROM intent_audit')).rows[0].n;
      expect(await errorOf(await bulkIntent({ selector: selector(), disabled: true, reason: 'x' }))).toMatchObject({ status, code });
      expect((await pool.query('SELECT count(*)::int AS n FROM intent_audit')).rows[0].n).toBe(before);
    });
  });

  describe('team owners', () => {
    it('set with a reason and audited; a team that is not a label value or a runbook that is not http(s): 400, nothing stored', async () => {
      const team = uniqueLease('oteam');
      const put = (t: string, body: unknown) => teamOwnerRoute.PUT(request(`/api/v1/teams/${t}/owner`, 'PUT', body), params({ team: t }));
      expect(await errorOf(await put('not a label', { contact: 'x', reason: 'y' }))).toMatchObject({ status: 400, code: 'invalid_name' });
      expect(await errorOf(await put(team, { contact: 'x', runbookUrl: 'javascript:alert(1)', reason: 'y' }))).toMatchObject({
        status: 400,
        code: 'invalid_body',
      });
      expect((await pool.query('SELECT count(*)::int AS n FROM team_owners WHERE team = $1', [team])).rows[0].n).toBe(0);
      expect((await put(team, { contact: '#search', reason: 'rota' })).status).toBe(200);
      expect(await errorOf(await put(team, { contact: '#search', reason: 'rota' }))).toMatchObject({ status: 409, code: 'no_change' });
      const audit = await pool.query('SELECT by, identified_by, reason, from_owner, to_owner FROM team_owner_audit WHERE team = $1', [team]);
      expect(audit.rows).toEqual([
        expect.objectContaining({
          by: 'dora',
          identified_by: 'token',
          reason: 'rota',
          from_owner: null,
          to_owner: expect.objectContaining({ contact: '#search' }),
        }),
      ]);
    });
  });
});
