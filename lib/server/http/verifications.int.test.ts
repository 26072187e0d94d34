// The ticket's two verifications, through HTTP: a real node HTTP server
// serving the real route handler, real PostgreSQL, a real scheduler process.
// 1. an active scheduler reads `progressing`;
// 2. SIGUSR1 (freeze progress, renewals go on) → `stalled` while renewalAgeMs stays below ttl.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUrl, uniqueLease, usePool } from '../../../db/testing/pools';
import type { SchedulerListResponse } from '../../api/types';
import { seedDocuments } from '../../../examples/demo/retention-planner/documents';
import { poll, useSchedulers } from '../../scheduler/testing/fixtures';
import type { SchedulerStatus } from '../../status/types';
import { createPool } from '../../../db/pool';
import { StatusService } from '../service';
import { listRoute } from './handlers';

describe('ticket verifications over HTTP with a real scheduler process', () => {
  const pool = usePool();
  const spawnScheduler = useSchedulers(databaseUrl);
  let server: http.Server;
  let base = '';
  let servicePool: ReturnType<typeof createPool>;

  beforeAll(async () => {
    await seedDocuments(pool, 20_000);
    servicePool = createPool(databaseUrl(), { applicationName: 'leaseboard-test-status', statementTimeoutMs: 2_000 });
    const service = new StatusService({ db: servicePool, readTimeoutMs: 2_000, pollIntervalMs: 1_000 });
    server = http.createServer(async (req, res) => {
      const response = await listRoute(new Request(`http://127.0.0.1${req.url}`), () => service);
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(await response.text());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await servicePool.end();
  });

  const status = async (name: string): Promise<SchedulerStatus | undefined> => {
    const response = await fetch(`${base}/api/v1/schedulers?q=${encodeURIComponent(name)}`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as SchedulerListResponse;
    expect(body.observation.ok).toBe(true);
    return body.schedulers.find((s) => s.name === name);
  };

  it('shows an active progressing scheduler, then stalled while its lease keeps renewing', async () => {
    const lease = uniqueLease('verify');
    const scheduler = spawnScheduler(lease, 'A', { 'stall-after': 2_500, 'batch-work': 200 });
    const active = await poll(
      () => status(lease),
      (s) => s?.health === 'progressing' && s.work.occurrence !== null,
    );
    expect(active!.authority).toMatchObject({ state: 'held', holder: scheduler.token, label: 'A' });
    expect(active!.authority.renewalAgeMs!).toBeLessThan(active!.authority.ttlMs!);
    expect(active!.work.lastAdvanceAgeMs!).toBeLessThanOrEqual(2_500);

    scheduler.signal('SIGUSR1');
    const stalled = await poll(
      () => status(lease),
      (s) => s?.health === 'stalled',
      20_000,
    );
    expect(stalled!.authority.state).toBe('held');
    expect(stalled!.authority.renewalAgeMs!).toBeLessThan(stalled!.authority.ttlMs!);
    expect(stalled!.work.state).toBe('stalled');
    expect(stalled!.work.lastAdvanceAgeMs!).toBeGreaterThan(2_500);
    expect(stalled!.reasons.map((r) => r.code)).toContain('work_stalled');

    scheduler.signal('SIGUSR1');
    await poll(
      () => status(lease),
      (s) => s?.health === 'progressing',
      20_000,
    );
  });
});
