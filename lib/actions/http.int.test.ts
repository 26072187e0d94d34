// Operator actions over the real app/api route handlers and the run's
// database: every mutating route refuses cross-site requests and viewers
// with 403 and changes nothing; bad input is a 400 naming the field, an
// oversized body a 413 read no further; an operator's change is committed and
// audited (who and how identified, what, from → to, why, when); sign-out ends
// the session for good; failed sign-ins are limited per client and logged
// without the token.
import { beforeAll, describe, expect, it, vi } from 'vitest';

vi.mock('server-only', () => ({}));
const TOKEN = 'e2e-operator-token-0123456789abcdef';
process.env.DATABASE_URL = databaseUrl();
process.env.LEASEBOARD_OPERATOR_TOKEN = TOKEN;

import * as demoAction from '../../app/api/demo/processes/[id]/[action]/route';
import * as auditRoute from '../../app/api/v1/audit/route';
import * as alertModeRoute from '../../app/api/v1/alerts/rules/[rule]/mode/route';
import * as intentRoute from '../../app/api/v1/schedulers/[name]/intent/route';
import * as sessionRoute from '../../app/api/v1/session/route';
import type { Pool } from 'pg';
import { databaseUrl, uniqueLease, usePool } from '../../db/testing/pools';
import { enablePeerStamping, PEER_HEADER } from '../http/peer';
import { register } from '../server/testing/seed';
import { BODY_LIMITS } from './respond';
import { SIGN_IN_FAILURES } from './sign-in-limit';

const ORIGIN = 'http://leaseboard.test';
const SAME = { host: 'leaseboard.test', origin: ORIGIN, 'sec-fetch-site': 'same-origin', 'x-leaseboard-action': '1', 'content-type': 'application/json' };
const CROSS = { ...SAME, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };

let operatorCookie = '';

const post = (path: string, headers: Record<string, string>, body: unknown, method = 'POST') =>
  new Request(`${ORIGIN}${path}`, { method, headers, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
const params = <T>(value: T) => ({ params: Promise.resolve(value) });
const intent = (name: string, headers: Record<string, string>, body: unknown) =>
  intentRoute.POST(post(`/api/v1/schedulers/${name}/intent`, headers, body), params({ name }));
const alertMode = (rule: string, headers: Record<string, string>, body: unknown) =>
  alertModeRoute.PUT(post(`/api/v1/alerts/rules/${rule}/mode`, headers, body, 'PUT'), params({ rule }));

async function modeState(pool: Pool, scheduler: string) {
  const modes = await pool.query('SELECT rule, mode, by, reason FROM alert_modes WHERE scheduler = $1', [scheduler]);
  const audit = await pool.query('SELECT count(*)::int AS n FROM alert_mode_audit WHERE scheduler = $1', [scheduler]);
  return { modes: modes.rows, audits: audit.rows[0].n as number };
}

async function dbState(pool: Pool, name: string) {
  const intents = await pool.query('SELECT disabled, by, reason FROM scheduler_intents WHERE lease = $1', [name]);
  const audit = await pool.query('SELECT count(*)::int AS n FROM intent_audit WHERE lease = $1', [name]);
  return { intent: intents.rows[0] ?? null, audits: audit.rows[0].n as number };
}

async function errorOf(response: Response) {
  const body = (await response.json()) as { error: { code: string; message: string } };
  return { status: response.status, ...body.error };
}

describe('operator actions', () => {
  const pool = usePool();
  const state = (name: string) => dbState(pool, name);

  beforeAll(async () => {
    const signedIn = await sessionRoute.POST(post('/api/v1/session', SAME, { token: TOKEN, name: 'carol' }));
    expect(signedIn.status).toBe(200);
    const cookie = signedIn.headers.get('set-cookie')!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).not.toMatch(/Secure/); // plain http
    operatorCookie = cookie.split(';')[0]!;
  });

  describe('cross-site requests', () => {
    it('every mutating route answers 403, and the database shows nothing changed', async () => {
      const name = uniqueLease('xsite');
      await register(pool, name);
      const before = await state(name);
      const attempts = [
        await intent(name, { ...CROSS, cookie: operatorCookie }, { disabled: true, reason: 'evil' }),
        await sessionRoute.POST(post('/api/v1/session', CROSS, { token: TOKEN, name: 'mallory' })),
        await sessionRoute.DELETE(post('/api/v1/session', { ...CROSS, cookie: operatorCookie }, undefined, 'DELETE')),
        await demoAction.POST(post('/api/demo/processes/p/kill', { ...CROSS, cookie: operatorCookie }, undefined), params({ id: 'p', action: 'kill' })),
        // a plain cross-site HTML form cannot send the action header
        await intent(name, { host: 'leaseboard.test', 'content-type': 'application/json', cookie: operatorCookie }, { disabled: true, reason: 'form' }),
        await alertMode('SchedulerStalled', { ...CROSS, cookie: operatorCookie }, { mode: 'off', scheduler: name, reason: 'evil' }),
        await alertMode(
          'SchedulerStalled',
          { host: 'leaseboard.test', 'content-type': 'application/json', cookie: operatorCookie },
          { mode: 'off', reason: 'form' },
        ),
      ];
      for (const response of attempts) expect(await errorOf(response)).toMatchObject({ status: 403, code: 'cross_site' });
      expect(attempts[1]!.headers.get('set-cookie')).toBeNull();
      expect(await state(name)).toEqual(before);
      expect(await modeState(pool, name)).toEqual({ modes: [], audits: 0 });
    });
  });

  describe('authorisation and input', () => {
    it('a viewer gets 403 on every mutating route and changes nothing', async () => {
      const name = uniqueLease('viewer');
      await register(pool, name);
      expect(await errorOf(await intent(name, SAME, { disabled: true, reason: 'maintenance' }))).toMatchObject({ status: 403, code: 'forbidden' });
      expect(await errorOf(await demoAction.POST(post('/api/demo/processes/p/kill', SAME, undefined), params({ id: 'p', action: 'kill' })))).toMatchObject({
        status: 403,
        code: 'forbidden',
      });
      expect(await errorOf(await sessionRoute.POST(post('/api/v1/session', SAME, { token: 'wrong-token', name: 'mallory' })))).toMatchObject({ status: 403 });
      expect(await state(name)).toEqual({ intent: null, audits: 0 });
      expect(await errorOf(await alertMode('SchedulerStalled', SAME, { mode: 'off', scheduler: name, reason: 'viewer' }))).toMatchObject({
        status: 403,
        code: 'forbidden',
      });
      expect(await modeState(pool, name)).toEqual({ modes: [], audits: 0 });
    });

    it.each([
      ['a missing reason', { mode: 'off' }, 400, /reason/],
      ['an oversized reason', { mode: 'off', reason: 'x'.repeat(201) }, 400, /reason: at most 200/],
      ['an unknown mode', { mode: 'loud', reason: 'x' }, 400, /mode: one of off, shadow, on/],
      ['an unknown field', { mode: 'off', reason: 'x', by: 'someone-else' }, 400, /by|unrecognized/i],
      ['an unknown scheduler', { mode: 'off', reason: 'x', scheduler: 'nobody-here' }, 404, /no scheduler named nobody-here/],
    ])('alert mode with %s → %i, nothing written', async (_what, body, status, message) => {
      const name = uniqueLease('mode-input');
      await register(pool, name);
      const error = await errorOf(await alertMode('SchedulerStalled', { ...SAME, cookie: operatorCookie }, { scheduler: name, ...body }));
      expect(error).toMatchObject({ status });
      expect(error.message).toMatch(message);
      expect(await modeState(pool, name)).toEqual({ modes: [], audits: 0 });
    });

    it('alert mode for an unknown rule → 404; a service rule has no per-scheduler mode → 400', async () => {
      expect(await errorOf(await alertMode('NoSuchRule', { ...SAME, cookie: operatorCookie }, { mode: 'off', reason: 'x' }))).toMatchObject({
        status: 404,
        code: 'unknown_rule',
      });
      const name = uniqueLease('mode-service');
      await register(pool, name);
      expect(await errorOf(await alertMode('Watchdog', { ...SAME, cookie: operatorCookie }, { mode: 'off', scheduler: name, reason: 'x' }))).toMatchObject({
        status: 400,
        code: 'invalid_body',
      });
    });

    it.each([
      ['a missing reason', { disabled: true }, /reason/],
      ['an empty reason', { disabled: true, reason: '   ' }, /reason/],
      ['an oversized reason', { disabled: true, reason: 'x'.repeat(201) }, /reason: at most 200/],
      ['a missing decision', { reason: 'maintenance' }, /disabled/],
      ['an unknown field', { disabled: true, reason: 'maintenance', by: 'someone-else' }, /by|unrecognized/i],
      ['a body that is not JSON', '{disabled:', /JSON/],
    ])('%s → 400 naming the problem, nothing written', async (_what, body, message) => {
      const name = uniqueLease('input');
      await register(pool, name);
      const error = await errorOf(await intent(name, { ...SAME, cookie: operatorCookie }, body));
      expect(error).toMatchObject({ status: 400, code: 'invalid_body' });
      expect(error.message).toMatch(message);
      expect(await state(name)).toEqual({ intent: null, audits: 0 });
    });

    it("a body over the route's limit → 413: refused on Content-Length before a byte is read, else read no further than the limit", async () => {
      const name = uniqueLease('huge');
      await register(pool, name);
      let pulled = 0;
      const endless = () =>
        new ReadableStream<Uint8Array>({
          pull(controller) {
            pulled += 1_024;
            controller.enqueue(new TextEncoder().encode(`{"disabled":true,"reason":"${'y'.repeat(1_000)}`.slice(0, 1_024)));
          },
        });
      const headers = { ...SAME, cookie: operatorCookie };
      const declared = new Request(`${ORIGIN}/api/v1/schedulers/${name}/intent`, {
        method: 'POST',
        headers: { ...headers, 'content-length': String(64 * 1024 * 1024) },
        body: endless(),
        duplex: 'half',
      } as RequestInit);
      const started = Date.now();
      expect(await errorOf(await intentRoute.POST(declared, params({ name })))).toMatchObject({ status: 413, code: 'too_large' });
      expect(pulled).toBeLessThanOrEqual(2 * 1_024); // what the stream queued ahead, at most; none of it parsed
      const streamed = new Request(`${ORIGIN}/api/v1/schedulers/${name}/intent`, { method: 'POST', headers, body: endless(), duplex: 'half' } as RequestInit);
      pulled = 0;
      expect(await errorOf(await intentRoute.POST(streamed, params({ name })))).toMatchObject({ status: 413, code: 'too_large' });
      expect(pulled).toBeLessThanOrEqual(BODY_LIMITS.intent + 2 * 1_024);
      expect(Date.now() - started).toBeLessThan(2_000);
      // Sign-in needs no identity: it is bounded all the same.
      const signIn = new Request(`${ORIGIN}/api/v1/session`, {
        method: 'POST',
        headers: { ...SAME, 'content-length': String(1024 * 1024 * 1024) },
        body: endless(),
        duplex: 'half',
      } as RequestInit);
      expect(await errorOf(await sessionRoute.POST(signIn))).toMatchObject({ status: 413, code: 'too_large' });
      expect(await state(name)).toEqual({ intent: null, audits: 0 });
    });

    it('an unknown scheduler → 404', async () => {
      expect(await errorOf(await intent(uniqueLease('ghost'), { ...SAME, cookie: operatorCookie }, { disabled: true, reason: 'x' }))).toMatchObject({
        status: 404,
        code: 'unknown_scheduler',
      });
    });
  });

  describe('an operator acts', () => {
    it('disable then enable: committed, answered with from → to, and audited', async () => {
      const name = uniqueLease('act');
      await register(pool, name);
      const as = { ...SAME, cookie: operatorCookie };
      const disabled = await intent(name, as, { disabled: true, reason: 'storage migration', expectDisabled: false });
      expect(disabled.status).toBe(200);
      expect(await disabled.json()).toMatchObject({
        scheduler: name,
        from: 'enabled',
        to: 'disabled',
        intent: { disabled: true, by: 'carol', reason: 'storage migration' },
      });
      expect((await state(name)).intent).toEqual({ disabled: true, by: 'carol', reason: 'storage migration' });

      // Disabling again, or acting on a state that moved, is refused and not audited.
      expect(await errorOf(await intent(name, as, { disabled: true, reason: 'again' }))).toMatchObject({ status: 409, code: 'no_change' });
      expect(await errorOf(await intent(name, as, { disabled: false, reason: 'stale view', expectDisabled: false }))).toMatchObject({
        status: 409,
        code: 'conflict',
      });

      const enabled = await intent(name, as, { disabled: false, reason: 'migration done', expectDisabled: true });
      expect(await enabled.json()).toMatchObject({ from: 'disabled', to: 'enabled' });

      const audit = await auditRoute.GET(new Request(`${ORIGIN}/api/v1/audit?scheduler=${name}`));
      const { entries } = (await audit.json()) as { entries: Array<Record<string, string>> };
      expect(entries.map(({ who, identifiedBy, action, target, from, to, reason }) => ({ who, identifiedBy, action, target, from, to, reason }))).toEqual([
        { who: 'carol', identifiedBy: 'token', action: 'scheduler.enable', target: name, from: 'disabled', to: 'enabled', reason: 'migration done' },
        { who: 'carol', identifiedBy: 'token', action: 'scheduler.disable', target: name, from: 'enabled', to: 'disabled', reason: 'storage migration' },
      ]);
      expect(Date.parse(entries[0]!.at!)).toBeGreaterThan(Date.parse(entries[1]!.at!));
    });

    it('an alert mode: set, answered with from → to, refused when unchanged or stale, audited and listed', async () => {
      const name = uniqueLease('mode-act');
      await register(pool, name);
      const as = { ...SAME, cookie: operatorCookie };
      const on = await alertMode('SchedulerStalled', as, { mode: 'on', scheduler: name, reason: 'page on stalls', expectMode: 'shadow' });
      expect(on.status).toBe(200);
      expect(await on.json()).toMatchObject({
        rule: 'SchedulerStalled',
        scheduler: name,
        from: { setting: null, effective: 'shadow' },
        to: 'on',
        setting: { mode: 'on', by: 'carol', reason: 'page on stalls' },
      });
      expect(await errorOf(await alertMode('SchedulerStalled', as, { mode: 'on', scheduler: name, reason: 'again' }))).toMatchObject({
        status: 409,
        code: 'no_change',
      });
      expect(
        await errorOf(await alertMode('SchedulerStalled', as, { mode: 'off', scheduler: name, reason: 'stale view', expectMode: 'shadow' })),
      ).toMatchObject({
        status: 409,
        code: 'conflict',
      });
      const shadow = await alertMode('SchedulerStalled', as, { mode: 'shadow', scheduler: name, reason: 'too noisy', expectMode: 'on' });
      expect(await shadow.json()).toMatchObject({ from: { setting: 'on', effective: 'on' }, to: 'shadow' });
      expect(await modeState(pool, name)).toEqual({ modes: [{ rule: 'SchedulerStalled', mode: 'shadow', by: 'carol', reason: 'too noisy' }], audits: 2 });

      const audit = await auditRoute.GET(new Request(`${ORIGIN}/api/v1/audit?scheduler=${name}`));
      const { entries } = (await audit.json()) as { entries: Array<Record<string, string | null>> };
      expect(
        entries.map(({ who, identifiedBy, action, target, scheduler, rule, from, to, reason }) => ({
          who,
          identifiedBy,
          action,
          target,
          scheduler,
          rule,
          from,
          to,
          reason,
        })),
      ).toEqual([
        {
          who: 'carol',
          identifiedBy: 'token',
          action: 'alert.mode',
          target: name,
          scheduler: name,
          rule: 'SchedulerStalled',
          from: 'on',
          to: 'shadow',
          reason: 'too noisy',
        },
        {
          who: 'carol',
          identifiedBy: 'token',
          action: 'alert.mode',
          target: name,
          scheduler: name,
          rule: 'SchedulerStalled',
          from: 'shadow (inherited)',
          to: 'on',
          reason: 'page on stalls',
        },
      ]);
    });

    it('signing out ends the session: the old cookie, replayed, counts for nothing and changes nothing', async () => {
      const whoami = await sessionRoute.GET(new Request(`${ORIGIN}/api/v1/session`, { headers: { cookie: operatorCookie } }));
      expect(await whoami.json()).toEqual({ role: 'operator', who: 'carol', via: 'session', localSignIn: true, oidcSignIn: false });
      const out = await sessionRoute.DELETE(post('/api/v1/session', { ...SAME, cookie: operatorCookie }, undefined, 'DELETE'));
      expect(out.headers.get('set-cookie')).toMatch(/Max-Age=0/);
      const anonymous = await sessionRoute.GET(new Request(`${ORIGIN}/api/v1/session`));
      expect(await anonymous.json()).toEqual({ role: 'viewer', who: null, via: 'anonymous', localSignIn: true, oidcSignIn: false });
      // The cookie a browser (or an attacker who copied it) still holds:
      const replayed = await sessionRoute.GET(new Request(`${ORIGIN}/api/v1/session`, { headers: { cookie: operatorCookie } }));
      expect(await replayed.json()).toMatchObject({ role: 'viewer', via: 'anonymous' });
      const name = uniqueLease('after-sign-out');
      await register(pool, name);
      expect(await errorOf(await intent(name, { ...SAME, cookie: operatorCookie }, { disabled: true, reason: 'replayed cookie' }))).toMatchObject({
        status: 403,
        code: 'forbidden',
      });
      expect(await state(name)).toEqual({ intent: null, audits: 0 });
    });

    it('failed sign-ins are limited per client (429, even for the right token, until the window passes) and logged without the token', async () => {
      const stamp = enablePeerStamping();
      const from = (peer: string, token: string) =>
        sessionRoute.POST(post('/api/v1/session', { ...SAME, [PEER_HEADER]: stamp(peer) }, { token, name: 'mallory' }));
      const warned = vi.spyOn(console, 'warn').mockImplementation(() => {});
      try {
        for (let attempt = 1; attempt <= SIGN_IN_FAILURES.failures; attempt++) {
          expect((await from('198.51.100.66', `guess-${attempt}-${'x'.repeat(24)}`)).status).toBe(403);
        }
        const blocked = await from('198.51.100.66', TOKEN);
        expect(await errorOf(blocked)).toMatchObject({ status: 429, code: 'rate_limited' });
        expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
        // Another client is not affected.
        expect((await from('198.51.100.67', TOKEN)).status).toBe(200);
        const lines = warned.mock.calls.map((call) => String(call[0]));
        expect(lines).toHaveLength(SIGN_IN_FAILURES.failures);
        expect(lines.at(-1)).toMatch(/sign-in refused \(not the operator token\) for client-[0-9a-f]{10}: failure 10 of 10/);
        for (const line of lines) {
          expect(line).not.toMatch(/guess-|mallory|198\.51\.100|e2e-operator-token/);
        }
      } finally {
        warned.mockRestore();
      }
    });

    it('parallel guesses are counted before any is compared: of 30 at once, only the budget is tried, the rest get 429', async () => {
      const stamp = enablePeerStamping();
      const warned = vi.spyOn(console, 'warn').mockImplementation(() => {});
      try {
        const answers = await Promise.all(
          Array.from({ length: 30 }, (_, i) =>
            sessionRoute.POST(
              post('/api/v1/session', { ...SAME, [PEER_HEADER]: stamp('198.51.100.70') }, { token: `guess-${i}-${'y'.repeat(24)}`, name: 'mallory' }),
            ),
          ),
        );
        const statuses = answers.map((answer) => answer.status).sort();
        expect(statuses.filter((status) => status === 403)).toHaveLength(SIGN_IN_FAILURES.failures);
        expect(statuses.filter((status) => status === 429)).toHaveLength(30 - SIGN_IN_FAILURES.failures);
      } finally {
        warned.mockRestore();
      }
    });

    it('a neighbour at the same address (every loopback client is one) failing under another name does not lock the operator out', async () => {
      const stamp = enablePeerStamping();
      const from = (token: string, name: string) => sessionRoute.POST(post('/api/v1/session', { ...SAME, [PEER_HEADER]: stamp('127.0.0.1') }, { token, name }));
      const warned = vi.spyOn(console, 'warn').mockImplementation(() => {});
      try {
        for (let attempt = 1; attempt <= SIGN_IN_FAILURES.failures; attempt++)
          expect((await from(`guess-${attempt}-${'z'.repeat(24)}`, 'neighbour')).status).toBe(403);
        expect((await from(TOKEN, 'neighbour')).status).toBe(429);
        expect((await from(TOKEN, 'carol')).status).toBe(200);
      } finally {
        warned.mockRestore();
      }
    });
  });
});
