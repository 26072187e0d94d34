// The dashboard server's hot-read path: given a plain node:http server that
// offers each request to hotReadRoutes first and to a fallback (Next.js in
// production) otherwise, exactly GET/HEAD of the list, metrics and healthz
// are answered — with what the app routes answer — and everything else falls through.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

process.env.DATABASE_URL = inject('databaseUrl');

import { uniqueLease, usePool } from '../../../db/testing/pools';
import { closeStatusService, statusService } from '../instance';
import { register } from '../testing/seed';
import { listRoute } from './handlers';
import { hotReadRoutes } from './node-routes';

describe('hot reads on the node server', () => {
  const pool = usePool();
  const fellThrough: string[] = [];
  const hot = hotReadRoutes('/ops');
  const server = http.createServer((req, res) => {
    if (hot(req, res)) return;
    fellThrough.push(`${req.method} ${req.url}`);
    res.writeHead(418).end();
  });
  let base = '';

  beforeAll(async () => {
    await register(pool, uniqueLease('hot'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await closeStatusService();
  });

  it('answers the list as the app route does, and metrics and healthz', async () => {
    const served = await fetch(`${base}/ops/api/v1/schedulers?limit=5`);
    expect(served.status).toBe(200);
    expect(served.headers.get('cache-control')).toBe('no-store');
    const direct = await listRoute(new Request('http://x/api/v1/schedulers?limit=5'), statusService);
    expect(await served.json()).toEqual(await direct.json()); // the same shared read within its max age
    expect((await fetch(`${base}/ops/api/metrics`)).headers.get('content-type')).toMatch(/^text\/plain/);
    expect((await fetch(`${base}/ops/api/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/ops/api/v1/schedulers?limit=ten`)).status).toBe(400);
    const head = await fetch(`${base}/ops/api/metrics`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect(fellThrough).toEqual([]);
  });

  it('leaves every other method and path to the framework', async () => {
    for (const [method, path] of [
      ['POST', '/ops/api/v1/schedulers'],
      ['GET', '/api/v1/schedulers'],
      ['GET', '/ops/api/v1/schedulers/x'],
      ['GET', '/ops/api/v1/schedulersX'],
      ['GET', '/ops/'],
    ] as const) {
      expect((await fetch(`${base}${path}`, { method })).status, `${method} ${path}`).toBe(418);
    }
    expect(fellThrough).toHaveLength(5);
  });
});
