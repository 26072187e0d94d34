// Route-level tests: the real app/api route handlers (Next's GET functions)
// called with `new Request(...)` against the run's database, fuzzed with
// hostile parameters: zero 5xx, every error in the { error: { code, message } }
// shape, every response `Cache-Control: no-store`.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

vi.mock('server-only', () => ({}));
process.env.DATABASE_URL = databaseUrl();
// The fuzz sends 600 heavy reads from one client in well under 10 s: lift the per-client
// budget (its 429 is tested in contract.int.test.ts), so every answer here is about the input.
process.env.LEASEBOARD_HEAVY_READS_PER_10S = '10000';

import * as detailRoute from '../../../app/api/v1/schedulers/[name]/route';
import * as historyRoute from '../../../app/api/v1/schedulers/[name]/history/route';
import * as listRoute from '../../../app/api/v1/schedulers/route';
import * as healthzRoute from '../../../app/api/healthz/route';
import * as openapiRoute from '../../../app/api/v1/openapi.json/route';
import { databaseUrl, uniqueLease, usePool } from '../../../db/testing/pools';
import { closeStatusService } from '../instance';
import { acquire, register, reporter } from '../testing/seed';

const BASE = 'http://leaseboard.test';

function rng(seed: number) {
  let x = seed >>> 0 || 1;
  return () => (x = (x * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

const random = rng(20261130);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
const HOSTILE = [
  '',
  ' ',
  '-1',
  '0',
  '1',
  '499',
  '500',
  '501',
  '1e3',
  '1.5',
  'NaN',
  'Infinity',
  '-Infinity',
  '9'.repeat(400),
  '-' + '9'.repeat(30),
  '0x10',
  'null',
  'undefined',
  '[]',
  '{}',
  "'; SELECT pg_sleep(10); --",
  '%',
  '%00',
  '\u0000',
  '\u202e',
  '😀'.repeat(50),
  'é'.repeat(300),
  'stalled',
  'stalled,unknown',
  'stalled,,idle',
  'STALLED',
  'idle,bogus',
  ',',
  'x'.repeat(5000),
  '2026-11-30T16:00:00Z',
  '2026-02-30T16:00:00Z',
  '1969-12-31T23:59:59Z',
  '0000-01-01T00:00:00Z',
  '9999-12-31T23:59:59Z',
  '2026-11-30',
  '16:00',
  'yesterday',
  new Date().toISOString(),
  new Date(Date.now() + 3_600_000).toISOString(),
  new Date(Date.now() - 3_600_000).toISOString(),
  new Date(Date.now() - 30 * 86_400_000).toISOString(),
];
const randomString = () => {
  const n = Math.floor(random() * 40);
  let s = '';
  for (let i = 0; i < n; i++) s += String.fromCodePoint(Math.floor(random() * (random() < 0.8 ? 0x7f : 0x2ffff)));
  return s;
};
const value = () => (random() < 0.7 ? pick(HOSTILE) : randomString());

function url(path: string, keys: readonly string[]): string {
  const q = new URLSearchParams();
  for (const k of keys) if (random() < 0.6) q.append(k, value());
  if (random() < 0.1) q.append(pick(keys), value()); // duplicates
  return `${BASE}${path}?${q.toString()}`;
}

async function check(response: Response): Promise<{ status: number; body: unknown }> {
  expect(response.status).toBeLessThan(500);
  expect(response.headers.get('cache-control')).toBe('no-store');
  const body = (await response.json()) as { error?: { code: unknown; message: unknown } };
  if (response.status >= 400) {
    expect(typeof body.error?.code).toBe('string');
    expect(typeof body.error?.message).toBe('string');
    expect(JSON.stringify(body)).not.toMatch(/\bat \S+:\d+|SELECT|postgres:\/\//);
  }
  return { status: response.status, body };
}

describe('status API routes (app/api, real PostgreSQL)', () => {
  const pool = usePool();
  const name = uniqueLease('route');
  beforeAll(async () => {
    await register(pool, name);
    await reporter(pool, await acquire(pool, name)).report(null, null);
  });
  afterAll(() => closeStatusService());

  const ctx = (n: string) => ({ params: Promise.resolve({ name: n }) });

  it('answers the happy paths', async () => {
    const list = await check(await listRoute.GET(new Request(`${BASE}/api/v1/schedulers?q=${name}`)));
    expect(list).toMatchObject({ status: 200, body: { total: 1, observation: { ok: true }, schedulers: [{ name, health: 'progressing' }] } });
    const detail = await check(await detailRoute.GET(new Request(`${BASE}/api/v1/schedulers/${name}`), ctx(name)));
    expect(detail).toMatchObject({ status: 200, body: { status: { name } } });
    const history = await check(await historyRoute.GET(new Request(`${BASE}/api/v1/schedulers/${name}/history`), ctx(name)));
    expect(history).toMatchObject({ status: 200, body: { name } }); // a young scheduler: the span starts at its registration
    expect(await check(await healthzRoute.GET())).toMatchObject({ status: 200, body: { ok: true, store: { ok: true } } });
    expect(await check(await openapiRoute.GET())).toMatchObject({ status: 200, body: { openapi: '3.1.0' } });
    expect((await check(await detailRoute.GET(new Request(`${BASE}/x`), ctx('nobody')))).status).toBe(404);
  });

  it('fuzz: hostile parameters never yield a 5xx, errors always have the error shape', async () => {
    const statuses = new Map<number, number>();
    const count = (s: number) => statuses.set(s, (statuses.get(s) ?? 0) + 1);
    for (let i = 0; i < 300; i++) {
      count((await check(await listRoute.GET(new Request(url('/api/v1/schedulers', ['health', 'q', 'limit', 'offset']))))).status);
      const n = random() < 0.3 ? name : value();
      count((await check(await detailRoute.GET(new Request(url('/d', ['at'])), ctx(n)))).status);
      count((await check(await historyRoute.GET(new Request(url('/h', ['from', 'to'])), ctx(random() < 0.5 ? name : n)))).status);
    }
    expect([...statuses.keys()].filter((s) => ![200, 400, 404, 410].includes(s))).toEqual([]);
    expect(statuses.get(200)).toBeGreaterThan(0);
    expect(statuses.get(400)).toBeGreaterThan(0);
    expect(statuses.get(404)).toBeGreaterThan(0);
    expect(statuses.get(410)).toBeGreaterThan(0);
  });

  it('clamps page sizes instead of trusting them', async () => {
    const big = await check(await listRoute.GET(new Request(`${BASE}/api/v1/schedulers?limit=100000&offset=-5`)));
    expect(big.body).toMatchObject({ limit: 500, offset: 0 });
    const zero = await check(await listRoute.GET(new Request(`${BASE}/api/v1/schedulers?limit=0`)));
    expect(zero.body).toMatchObject({ limit: 1 });
    expect((await check(await listRoute.GET(new Request(`${BASE}/api/v1/schedulers?limit=ten`)))).status).toBe(400);
    expect((await check(await listRoute.GET(new Request(`${BASE}/api/v1/schedulers?health=green`)))).status).toBe(400);
  });
});
