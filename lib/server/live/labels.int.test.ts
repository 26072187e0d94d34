// Scheduler labels on real PostgreSQL: declared by the library's registration and by the SQL
// function itself, bounded by the database whatever the caller, set by an operator (audited, and
// never overturned by a registration), carried by every status, selected with ?selector= through
// the real status service — and seen by the incremental read at the next read after any change.
import { describe, expect, it, vi } from 'vitest';
import { databaseUrl, uniqueLease, usePool } from '../../../db/testing/pools';

vi.mock('server-only', () => ({}));
const OPERATOR_TOKEN = 'labels-operator-token-0123456789abcdef';
process.env.DATABASE_URL = databaseUrl();
process.env.LEASEBOARD_OPERATOR_TOKEN = OPERATOR_TOKEN;

import * as labelsApp from '../../../app/api/v1/schedulers/[name]/labels/route';
import * as sessionApp from '../../../app/api/v1/session/route';
import { changeLabels } from '../../actions/labels';
import { KEY_CASES, VALUE_CASES } from '../../limits/labels-cases';
import { LABELS_MAX } from '../../limits/labels';
import { parseSelector } from '../../limits/selector';
import { registerScheduler, RegistrationError } from '../../scheduler/registration';
import { readAudit } from '../audit/read';
import { listRoute } from '../http/handlers';
import { acquire, serviceOn } from '../testing/seed';
import { readAllFacts, readChangedFacts, readOneFacts } from './facts';

const ORIGIN = 'http://leaseboard.test';
const SAME = { host: 'leaseboard.test', origin: ORIGIN, 'sec-fetch-site': 'same-origin', 'x-leaseboard-action': '1', 'content-type': 'application/json' };
const CADENCE = { everyMs: 3_600_000, reportEveryMs: 1_000, stallAfterMs: 60_000, overdueAfterMs: 3_600_000 };
const many = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 'v']));

describe('scheduler labels (real PostgreSQL)', () => {
  const pool = usePool({ max: 4 });
  const labelsOf = async (name: string) => (await readOneFacts(pool, name)).schedulers[0]?.facts.labels;
  const registerSql = (name: string, labels: unknown) =>
    pool.query('SELECT leaseboard_register($1, 3600000, 1000, 60000, 3600000, $2::jsonb)', [name, JSON.stringify(labels)]);
  const refusedCode = (promise: Promise<unknown>) =>
    promise.then(
      () => 'stored',
      (error: { code?: string }) => error.code,
    );

  async function operatorHeaders(): Promise<Record<string, string>> {
    const signedIn = await sessionApp.POST(
      new Request(`${ORIGIN}/api/v1/session`, { method: 'POST', headers: SAME, body: JSON.stringify({ token: OPERATOR_TOKEN, name: 'dana' }) }),
    );
    expect(signedIn.status).toBe(200);
    return { ...SAME, cookie: signedIn.headers.get('set-cookie')!.split(';')[0]! };
  }
  const putLabels = (name: string, headers: Record<string, string>, body: unknown) =>
    labelsApp.PUT(new Request(`${ORIGIN}/api/v1/schedulers/${name}/labels`, { method: 'PUT', headers, body: JSON.stringify(body) }), {
      params: Promise.resolve({ name }),
    });

  it('given a registration through the library, then the status carries the labels it declared; none declared: none', async () => {
    const name = uniqueLease('labels-lib');
    await registerScheduler(pool, { name, ...CADENCE, labels: { team: 'payments', service: 'documents', env: 'prod' } });
    expect(await labelsOf(name)).toEqual({ env: 'prod', service: 'documents', team: 'payments' });
    await registerScheduler(pool, { name, ...CADENCE });
    expect(await labelsOf(name)).toEqual({});
  });

  it('given labels that break the rules, then the library refuses them before any statement', async () => {
    const name = uniqueLease('labels-lib-bad');
    await expect(registerScheduler(pool, { name, ...CADENCE, labels: { 'bad key': 'x' } })).rejects.toThrow(RegistrationError);
    await expect(registerScheduler(pool, { name, ...CADENCE, labels: many(LABELS_MAX + 1) })).rejects.toThrow(`at most ${LABELS_MAX}`);
    expect((await readOneFacts(pool, name)).schedulers).toEqual([]);
  });

  it('given the SQL function called directly, then labels are stored; a five-argument call (a client from before labels) declares none', async () => {
    const name = uniqueLease('labels-sql');
    await registerSql(name, { team: 'search' });
    expect(await labelsOf(name)).toEqual({ team: 'search' });
    await pool.query('SELECT leaseboard_register($1, 3600000, 1000, 60000, 3600000)', [name]);
    expect(await labelsOf(name)).toEqual({});
  });

  it('given labels out of bounds through SQL, then the database refuses them (check_violation) and nothing changes', async () => {
    const name = uniqueLease('labels-bounds');
    await registerSql(name, { team: 'payments' });
    for (const bad of [many(LABELS_MAX + 1), { team: 1 }, { team: null }, { 'bad key': 'x' }, { team: 'x'.repeat(64) }, ['team'], 'team=payments']) {
      expect(await refusedCode(registerSql(name, bad)), JSON.stringify(bad).slice(0, 60)).toBe('23514');
    }
    expect(await refusedCode(pool.query(`UPDATE schedulers SET labels = '{"-x": ""}' WHERE name = $1`, [name]))).toBe('23514');
    expect(
      await refusedCode(
        pool.query(`INSERT INTO label_overrides (name, labels, by, reason, at) VALUES ($1, $2::jsonb, 'x', 'x', now())`, [name, JSON.stringify(many(33))]),
      ),
    ).toBe('23514');
    expect(await registerSql(name, many(LABELS_MAX)).then(() => 'stored')).toBe('stored');
    expect(Object.keys((await labelsOf(name))!)).toHaveLength(LABELS_MAX);
  });

  it('the database and lib/limits/labels.ts answer every key and value case alike', async () => {
    const keys = await pool.query<{ ok: boolean }>('SELECT leaseboard_label_key_ok(k) AS ok FROM unnest($1::text[]) WITH ORDINALITY AS t(k, i) ORDER BY i', [
      KEY_CASES.map((c) => c.key),
    ]);
    expect(keys.rows.map((r) => r.ok)).toEqual(KEY_CASES.map((c) => c.ok));
    const values = await pool.query<{ ok: boolean }>(
      'SELECT leaseboard_label_value_ok(v) AS ok FROM unnest($1::text[]) WITH ORDINALITY AS t(v, i) ORDER BY i',
      [VALUE_CASES.map((c) => c.value)],
    );
    expect(values.rows.map((r) => r.ok)).toEqual(VALUE_CASES.map((c) => c.ok));
  });

  it("given an operator's labels, then they win over every later registration, audited; handed back, the newest registration's apply", async () => {
    const name = uniqueLease('labels-operator');
    await registerSql(name, { team: 'unknown-yet' });
    const set = await changeLabels(
      pool,
      name,
      { labels: { team: 'payments', tier: '1' }, by: 'dana', reason: 'payments owns it now' },
      { identifiedBy: 'token' },
    );
    expect(set).toMatchObject({ kind: 'changed', from: null, to: { team: 'payments', tier: '1' }, labels: { team: 'payments', tier: '1' } });
    await registerSql(name, { team: 'search' }); // a restart of the program with its old labels
    expect(await labelsOf(name)).toEqual({ team: 'payments', tier: '1' });
    expect(await changeLabels(pool, name, { labels: { tier: '1', team: 'payments' }, by: 'dana', reason: 'again' }, { identifiedBy: 'token' })).toMatchObject({
      kind: 'unchanged',
    });
    expect(await changeLabels(pool, name, { labels: null, by: 'dana', reason: 'x' }, { identifiedBy: 'token', expectLabels: { team: 'other' } })).toMatchObject(
      {
        kind: 'conflict',
        current: { team: 'payments', tier: '1' },
      },
    );
    const back = await changeLabels(pool, name, { labels: null, by: 'dana', reason: 'the program declares them now' }, { identifiedBy: 'token' });
    expect(back).toMatchObject({ kind: 'changed', from: { team: 'payments', tier: '1' }, to: null, labels: { team: 'search' } });
    expect(await labelsOf(name)).toEqual({ team: 'search' });
    const audit = await readAudit(pool, { scheduler: name, limit: 10 });
    expect(audit.entries.map((e) => [e.action, e.who, e.identifiedBy, e.from, e.to, e.reason])).toEqual([
      ['scheduler.labels', 'dana', 'token', 'team=payments,tier=1', '(registration)', 'the program declares them now'],
      ['scheduler.labels', 'dana', 'token', '(registration)', 'team=payments,tier=1', 'payments owns it now'],
    ]);
    expect(await changeLabels(pool, uniqueLease('nobody'), { labels: {}, by: 'dana', reason: 'x' }, { identifiedBy: 'token' })).toEqual({
      kind: 'unknown_scheduler',
    });
  });

  it('given the operator endpoint, then bad labels are a 400 naming the key and change nothing; good ones answer what was committed', async () => {
    const name = uniqueLease('labels-http');
    await registerSql(name, { team: 'search' });
    const operator = await operatorHeaders();
    for (const [labels, says] of [
      [{ 'team/x/y': 'a' }, 'label key "team/x/y"'],
      [{ team: 'a b' }, 'label "team": the value must be'],
      [many(LABELS_MAX + 1), `labels: at most ${LABELS_MAX} per scheduler`],
      [{ team: 7 }, 'labels'],
    ] as const) {
      const refused = await putLabels(name, operator, { labels, reason: 'try' });
      expect(refused.status).toBe(400);
      const body = (await refused.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('invalid_body');
      expect(body.error.message).toContain(says);
    }
    expect(await labelsOf(name)).toEqual({ team: 'search' });
    expect((await readAudit(pool, { scheduler: name, limit: 10 })).entries).toEqual([]);
    const viewer = await putLabels(name, SAME, { labels: { team: 'payments' }, reason: 'not an operator' });
    expect(viewer.status).toBe(403);
    const done = await putLabels(name, operator, { labels: { team: 'payments' }, reason: 'handover' });
    expect(done.status).toBe(200);
    expect(await done.json()).toMatchObject({
      scheduler: name,
      from: null,
      to: { team: 'payments' },
      labels: { team: 'payments' },
      by: 'dana',
      reason: 'handover',
    });
    expect(await labelsOf(name)).toEqual({ team: 'payments' });
  });

  it('given a selector, then the list through the real status service keeps only the schedulers it selects, with their labels, paged', async () => {
    const prefix = uniqueLease('labels-sel');
    const fleet = {
      [`${prefix}-a`]: { team: 'payments', env: 'prod' },
      [`${prefix}-b`]: { team: 'payments', env: 'dev' },
      [`${prefix}-c`]: { team: 'search', env: 'prod', legacy: '' },
      [`${prefix}-d`]: {},
    };
    for (const [name, labels] of Object.entries(fleet)) await registerSql(name, labels);
    const service = serviceOn(pool);
    const list = async (query: string) => {
      const answer = await listRoute(new Request(`http://x/api/v1/schedulers?q=${prefix}&${query}`), () => service);
      return { status: answer.status, body: (await answer.json()) as { total: number; schedulers: { name: string; labels: object }[]; error?: object } };
    };
    const names = async (selector: string) =>
      (await list(`selector=${encodeURIComponent(selector)}`)).body.schedulers.map((s) => s.name.slice(prefix.length + 1));
    expect(await names('team=payments')).toEqual(['a', 'b']);
    expect(await names('team==payments,env!=dev')).toEqual(['a']);
    expect(await names('env in (prod,staging)')).toEqual(['a', 'c']);
    expect(await names('env notin (prod)')).toEqual(['b', 'd']);
    expect(await names('legacy')).toEqual(['c']);
    expect(await names('!team')).toEqual(['d']);
    expect(await names('')).toEqual(['a', 'b', 'c', 'd']);
    const paged = await list(`selector=team%3Dpayments&limit=1&offset=1`);
    expect(paged.body.total).toBe(2);
    expect(paged.body.schedulers.map((s) => [s.name, s.labels])).toEqual([[`${prefix}-b`, { env: 'dev', team: 'payments' }]]);
    for (const bad of ['team in (a', 'team=a,,env=b', 'Team.X/y=z', 'team=pay ments']) {
      const refused = await list(`selector=${encodeURIComponent(bad)}`);
      expect(refused.status, bad).toBe(400);
      expect(refused.body.error).toMatchObject({ code: 'invalid_parameter', message: expect.stringMatching(/^selector: /) });
    }
    expect((await list('selector=a&selector=b')).status).toBe(400);
  });

  it('given a detail read, live or as of an instant, then it carries the labels now (label history is not kept)', async () => {
    const name = uniqueLease('labels-detail');
    await registerSql(name, { team: 'search' });
    await acquire(pool, name);
    await changeLabels(pool, name, { labels: { team: 'payments' }, by: 'dana', reason: 'handover' }, { identifiedBy: 'token' });
    const service = serviceOn(pool);
    const live = await service.detail(name);
    expect(live.ok && live.value.status.labels).toEqual({ team: 'payments' });
    const { rows } = await pool.query<{ ms: number }>('SELECT (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS ms');
    const asOf = await service.detail(name, Math.floor(rows[0]!.ms) - 1);
    expect(asOf.ok && asOf.value.asOf !== null && asOf.value.status.labels).toEqual({ team: 'payments' });
  });

  it('given a label change by registration or by an operator, then the incremental read sees it at the next read (and the service shows it)', async () => {
    const name = uniqueLease('labels-inc');
    await registerSql(name, { team: 'search' });
    await acquire(pool, name);
    const service = serviceOn(pool);
    const selected = async (selector: string) => (await service.list({ q: name, selector: parse(selector) }, { fresh: true })).schedulers.map((s) => s.labels);
    expect(await selected('team=search')).toEqual([{ team: 'search' }]);

    const seen = async (write: () => Promise<unknown>) => {
      const { snapshot } = await readAllFacts(pool);
      await write();
      const changes = await readChangedFacts(pool, snapshot);
      return changes.changed.find((s) => s.facts.name === name)?.facts.labels ?? null;
    };
    expect(await seen(() => registerSql(name, { team: 'search', env: 'prod' }))).toEqual({ env: 'prod', team: 'search' });
    expect(await selected('env=prod')).toEqual([{ env: 'prod', team: 'search' }]);
    expect(await seen(() => changeLabels(pool, name, { labels: { team: 'payments' }, by: 'dana', reason: 'handover' }, { identifiedBy: 'token' }))).toEqual({
      team: 'payments',
    });
    expect(await selected('team=payments')).toEqual([{ team: 'payments' }]);
    expect(await selected('team=search')).toEqual([]);
    expect(await seen(() => changeLabels(pool, name, { labels: null, by: 'dana', reason: 'back' }, { identifiedBy: 'token' }))).toEqual({
      env: 'prod',
      team: 'search',
    });
    expect(await selected('team=search')).toEqual([{ env: 'prod', team: 'search' }]);
    // Each of those reads applied changes to the index held (an incremental read), never a reload of every scheduler.
    expect(service.index.lastApply.changed).toBeLessThan(service.index.size);
  });
});

function parse(text: string) {
  const parsed = parseSelector(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.selector;
}
