// The dashboard server's hot-read path: given a plain node:http server that
// offers each request to hotReadRoutes first and to a fallback (Next.js in
// production) otherwise, exactly GET/HEAD of the list, metrics and healthz
// are answered — with what the app routes answer — and everything else falls through.
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

process.env.DATABASE_URL = databaseUrl();

import { databaseUrl, uniqueLease, usePool } from '../../../db/testing/pools';
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

  it('answers whatever the Host header says (x:99999 used to make the request unbuildable and the socket silent)', async () => {
    const socket = net.connect(Number(new URL(base).port), '127.0.0.1');
    socket.write('GET /ops/api/v1/schedulers?limit=1 HTTP/1.1\r\nHost: x:99999\r\nConnection: close\r\n\r\n');
    const started = Date.now();
    const statusLine = await new Promise<string>((resolve, reject) => {
      socket.once('data', (chunk) => resolve(chunk.toString('latin1').split('\r\n', 1)[0]!));
      socket.once('error', reject);
      setTimeout(() => reject(new Error('no answer within 5 s')), 5_000);
    });
    socket.destroy();
    expect(statusLine).toBe('HTTP/1.1 200 OK');
    expect(Date.now() - started).toBeLessThan(2_000);
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
