import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUrl, uniqueLease } from '../../db/testing/pools';
import type { DemoProcess } from '../api/types';
import { FAST_FLAGS, poll } from '../scheduler/testing/fixtures';
import { type ControlServer, startControlServer } from './control-server';
import { DemoSupervisor } from './supervisor';

// The demo controls drive real processes with real signals, on loopback, behind a token.
describe('demo supervisor and its control endpoint', () => {
  let supervisor: DemoSupervisor;
  let control: ControlServer;
  const lease = uniqueLease('demo');

  beforeAll(async () => {
    supervisor = new DemoSupervisor(databaseUrl());
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

  it('freezes, pauses, resumes, kills and restarts a real scheduler process', async () => {
    await poll(processes, (list) => list[0]?.state === 'running');
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
    const restarted = await poll(processes, (list) => list[0]!.state === 'running');
    expect(restarted[0]!.token).not.toBe(before);
    expect(restarted[0]!.droppingReports).toBe(false);
  });
});
