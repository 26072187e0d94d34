import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUrl, uniqueLease, usePool } from '../../db/testing/pools';
import type { ActionDeps } from '../../lib/actions/http';
import { signInLimiter } from '../../lib/actions/sign-in-limit';
import type { AuditEntry, DemoProcess } from '../../lib/api/types';
import { parseAuthConfig } from '../../lib/auth/config';
import { issueSession, SESSION_COOKIE } from '../../lib/auth/session';
import { pgSessionStore } from '../../lib/auth/session-store';
import { readAudit } from '../../lib/server/audit/read';
import { demoActionRoute } from '../../lib/demo/control-client';
import { seedDocuments } from './retention-planner/documents';
import { FAST_FLAGS, poll, PROCESS_START_MS } from '../../lib/scheduler/testing/fixtures';
import { type ControlServer, startControlServer } from './control-server';
import { DemoSupervisor, midWritePauseMs } from './supervisor';

// The demo controls drive real processes with real signals, on loopback, behind a token.
describe('demo supervisor and its control endpoint', () => {
  let supervisor: DemoSupervisor;
  let control: ControlServer;
  const lease = uniqueLease('demo');
  const pool = usePool();
  const logged: { id: string; line: Record<string, unknown> }[] = [];

  beforeAll(async () => {
    await seedDocuments(pool, 20_000);
    supervisor = new DemoSupervisor(databaseUrl(), (id, line) => logged.push({ id, line: JSON.parse(line) }));
    control = await startControlServer(supervisor);
    supervisor.start({ id: 'p1', lease, label: 'A', flags: FAST_FLAGS });
  });
  afterAll(async () => {
    await supervisor.stopAll();
    await control.close();
  });

  const call = (method: string, path: string, token = control.token) =>
    fetch(`${control.url}${path}`, { method, headers: { authorization: `Bearer ${token}` } });
  const processes = async () => ((await (await call('GET', '/processes')).json()) as { processes: DemoProcess[] }).processes;

  it('refuses requests without the token and unknown actions or processes', async () => {
    expect(control.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await call('GET', '/processes', 'wrong')).status).toBe(401);
    expect((await call('POST', '/processes/p1/explode')).status).toBe(400);
    expect((await call('POST', '/processes/nope/freeze')).status).toBe(404);
  });

  it('"Pause mid-write": the leader stops with its fence in hand past its ttl, resumes by itself, and its write is refused', async () => {
    const leaseB = uniqueLease('demo-mid');
    supervisor.start({ id: 'm1', lease: leaseB, label: 'A', flags: FAST_FLAGS });
    await poll(processes, (list) => list.find((p) => p.id === 'm1')?.state === 'running', PROCESS_START_MS);
    await poll(
      () => pool.query('SELECT cursor FROM occurrences WHERE lease = $1', [leaseB]),
      (r) => Number(r.rows[0]?.cursor ?? 0) > 0,
      PROCESS_START_MS,
    );
    supervisor.start({ id: 'm2', lease: leaseB, label: 'B', flags: FAST_FLAGS });
    expect((await call('POST', '/processes/m1/pause-mid-write')).status).toBe(200);
    const paused = await poll(processes, (list) => list.find((p) => p.id === 'm1')?.state === 'paused');
    expect(paused.find((p) => p.id === 'm1')).toMatchObject({ pausingMidWrite: true });
    const resumedAt = Date.now();
    const resumed = await poll(processes, (list) => list.find((p) => p.id === 'm1')?.state === 'running', midWritePauseMs(FAST_FLAGS) + 10_000);
    expect(resumed.find((p) => p.id === 'm1')!.pausingMidWrite).toBe(false);
    const refusal = await poll(async () => logged.find((entry) => entry.id === 'm1' && entry.line.event === 'write_rejected'), Boolean, 10_000);
    // stale_epoch once B has taken over (it normally has, ~4 s into the 5 s pause), else expired: refused either way.
    expect(['stale_epoch', 'expired']).toContain(refusal!.line.reason);
    expect(Date.now() - resumedAt).toBeLessThan(10_000);
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM stale_write_rejections WHERE lease = $1', [leaseB]);
    expect(rows[0].n).toBeGreaterThan(0);
  });

  it('freezes, pauses, resumes, kills and restarts a real scheduler process', async () => {
    await poll(processes, (list) => list[0]?.state === 'running', PROCESS_START_MS);
    expect((await processes())[0]).toMatchObject({ id: 'p1', pausingMidWrite: false });
    expect((await call('POST', '/processes/p1/freeze')).status).toBe(200);
    await poll(processes, (list) => list[0]!.frozen);
    await call('POST', '/processes/p1/unfreeze');
    await poll(processes, (list) => !list[0]!.frozen);
    await call('POST', '/processes/p1/drop-reports');
    await poll(processes, (list) => list[0]!.droppingReports);
    await call('POST', '/processes/p1/pause');
    expect((await processes())[0]!.state).toBe('paused');
    await call('POST', '/processes/p1/resume');
    expect((await processes())[0]!.state).toBe('running');
    const before = (await processes())[0]!.token;
    await call('POST', '/processes/p1/kill');
    expect((await processes())[0]!.state).toBe('exited');
    expect((await call('POST', '/processes/p1/freeze')).status).toBe(409);
    await call('POST', '/processes/p1/restart');
    const restarted = await poll(processes, (list) => list[0]!.state === 'running', PROCESS_START_MS);
    expect(restarted[0]!.token).not.toBe(before);
    expect(restarted[0]!.droppingReports).toBe(false);
  });

  it('a fault drill is an operator action: refused without a reason, and once applied it leaves an audit row (who, how identified, which process, when)', async () => {
    process.env.LEASEBOARD_DEMO_CONTROL_URL = control.url;
    process.env.LEASEBOARD_DEMO_CONTROL_TOKEN = control.token;
    const deps: ActionDeps = {
      auth: parseAuthConfig({ LEASEBOARD_OPERATOR_TOKEN: 'demo-drill-operator-token-0123456789' }),
      sessions: pgSessionStore(pool),
      signIns: signInLimiter(() => {}),
      writer: pool,
      nowMs: () => Date.now(),
      basePath: '',
    };
    const { value } = await issueSession(deps, 'dana', Date.now());
    const headers = { host: 'h', origin: 'http://h', 'sec-fetch-site': 'same-origin', 'x-leaseboard-action': '1', 'content-type': 'application/json' };
    const drill = (action: string, body: unknown, cookie = `${SESSION_COOKIE}=${value}`) =>
      demoActionRoute(
        new Request(`http://h/api/demo/processes/p1/${action}`, { method: 'POST', headers: { ...headers, cookie }, body: JSON.stringify(body) }),
        'p1',
        action,
        deps,
      );
    const drillsOf = async () => (await readAudit(pool, { scheduler: lease, limit: 50 })).entries.filter((e: AuditEntry) => e.action === 'demo.fault');
    const running = await poll(processes, (list) => list[0]?.state === 'running' && list[0].token !== null);
    try {
      expect((await drill('freeze', {})).status).toBe(400);
      expect((await drill('freeze', { reason: 'drill' }, 'nobody=1')).status).toBe(403);
      expect(await drillsOf()).toEqual([]);
      const frozen = await drill('freeze', { reason: 'rehearse a stuck holder' });
      expect(frozen.status).toBe(200);
      expect(await drillsOf()).toEqual([
        expect.objectContaining({
          who: 'dana',
          identifiedBy: 'token',
          action: 'demo.fault',
          target: 'p1',
          scheduler: lease,
          fault: { drill: 'freeze', process: 'p1', instance: running[0]!.token },
          from: 'running',
          reason: 'rehearse a stuck holder',
        }),
      ]);
      await poll(processes, (list) => list[0]!.frozen);
      expect((await drill('unfreeze', { reason: 'drill over' })).status).toBe(200);
      expect((await drillsOf()).map((entry) => entry.fault?.drill)).toEqual(['unfreeze', 'freeze']);
    } finally {
      delete process.env.LEASEBOARD_DEMO_CONTROL_URL;
      delete process.env.LEASEBOARD_DEMO_CONTROL_TOKEN;
    }
  });
});
