// /api/metrics on real PostgreSQL: valid Prometheus text (checked by
// `promtool check metrics`, required — CI installs Debian package
// `prometheus`), labels limited to scheduler and its state (health) — and
// `alertmanager` (an opaque id) for delivery — label values escaped, nothing
// stale when the store is unreadable; the stale-write rejection age that the
// Prometheus StaleWritesRejected rule reads; the evaluator's delivery status.
import { spawnSync } from 'node:child_process';
import { gunzipSync } from 'node:zlib';
import { existsSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../db/free-port';
import { createPool } from '../../../db/pool';
import { uniqueLease, usePool } from '../../../db/testing/pools';
import { fenceFor, logRejection, setIntent, writeFenced } from '../../lease';
import { roundStatements } from '../../jobs/alert-evaluator/write';
import { quietPlan } from '../../jobs/alert-evaluator/plan';
import { metricsRoute } from '../http/handlers';
import { changeLabels } from '../../actions/labels';
import { createWindow } from '../../actions/maintenance';
import { acquire, register, reporter, serviceOn, switchable } from '../testing/seed';

const PROMTOOL = ['/usr/bin/promtool', '/usr/local/bin/promtool'].find((p) => existsSync(p));

function promtoolCheck(text: string): { status: number | null; output: string } {
  if (!PROMTOOL) {
    throw new Error('promtool not found (/usr/bin/promtool): install the Debian package `prometheus` (apt-get install -y prometheus)');
  }
  const run = spawnSync(PROMTOOL, ['check', 'metrics'], { input: text, encoding: 'utf8', timeout: 30_000 });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

function labelNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const line of text.split('\n')) {
    if (line.startsWith('#') || !line.includes('{')) continue;
    for (const m of line.slice(line.indexOf('{') + 1, line.lastIndexOf('}')).matchAll(/(\w+)="/g)) names.add(m[1]!);
  }
  return names;
}

describe('Prometheus metrics (real PostgreSQL)', () => {
  const pool = usePool();
  const service = serviceOn(pool);
  const name = uniqueLease('metrics');
  let windowId = 0;
  beforeAll(async () => {
    await register(pool, name);
    const grant = await acquire(pool, name);
    await reporter(pool, grant).report(`${name}@2026-01-01T00:00:00Z`, 3);
    // A team (the info series) and an open maintenance window over it (the maintenance series).
    expect((await changeLabels(pool, name, { labels: { team: 'payments' }, by: 'sre', reason: 'owner' }, { identifiedBy: 'cli' })).kind).toBe('changed');
    const opened = await createWindow(
      pool,
      { selector: null, schedulers: [name], startsAtMs: Date.now() - 60_000, endsAtMs: Date.now() + 3_600_000, weekly: false },
      { by: 'sre', reason: 'metrics test', identifiedBy: 'cli' },
    );
    if (opened.kind !== 'changed') throw new Error(opened.kind);
    windowId = opened.window.id;
    const off = uniqueLease('metrics-off');
    await register(pool, off);
    await setIntent(pool, off, { disabled: true, by: 'sre', reason: 'test' });
    await register(pool, `${uniqueLease('metrics-odd')} "quoted" \\ back\nslash`); // escaping
    await logRejection(pool, { lease: name, attemptedEpoch: 1, currentEpoch: 2, reason: 'stale_epoch', resource: 'plan_items' });
    // What the evaluator stores of its delivery each round (its own statements, under a fence).
    const evaluator = await acquire(pool, uniqueLease('evaluator'), 60_000);
    const target = {
      target: 'alertmanager-1',
      queueDepth: 2,
      inFlight: 0,
      consecutiveFailures: 3,
      lastError: 'connection refused',
      lastSuccessAgeMs: 90_000,
      lastFailureAgeMs: 500,
      nextAttemptInMs: 1_000,
      sentAlerts: 12,
      failedAttempts: 3,
      rejectedAlerts: 0,
      droppedAlerts: 1,
    };
    const stored = await writeFenced(pool, fenceFor(evaluator), (w) => roundStatements(w, quietPlan({ delivery: [target] })));
    expect(stored.kind).toBe('written');
  });

  it('passes `promtool check metrics`, with only scheduler/health/state labels and no holder tokens', async () => {
    const response = await metricsRoute(new Request('http://dashboard.invalid/api/metrics'), () => service);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await response.text();
    const check = promtoolCheck(text);
    expect(check.output).toBe('');
    expect(check.status).toBe(0);
    expect([...labelNames(text)].sort()).toEqual(['alertmanager', 'health', 'mode', 'scheduler', 'team', 'window']);
    // The team on one info series to join on, the window on one series while it is open; health unchanged by it.
    expect(text).toContain(`leaseboard_scheduler_info{scheduler="${name}",team="payments"} 1`);
    expect(text).toContain(`leaseboard_scheduler_maintenance{scheduler="${name}",window="${windowId}"} 1`);
    expect(text).not.toMatch(/inst_/);
    expect(text).toContain(`leaseboard_scheduler_health{scheduler="${name}",health="progressing"} 1`);
    expect(text).toContain(`leaseboard_scheduler_epoch{scheduler="${name}"} 1`);
    expect(text).toMatch(/^leaseboard_observation_ok 1$/m);
    // One PostgreSQL server, no standby: a single node, nothing to lag, generation 0.
    expect(text).toMatch(/^leaseboard_store_durability\{mode="single"\} 1$/m);
    expect(text).toMatch(/^leaseboard_store_durability\{mode="async"\} 0$/m);
    expect(text).toMatch(/^leaseboard_store_synchronous_standbys 0$/m);
    expect(text).toMatch(/^leaseboard_store_failover_generation 0$/m);
    expect(text).not.toMatch(/^leaseboard_store_standby_lag_seconds/m);
    const age = new RegExp(`^leaseboard_scheduler_last_stale_write_rejection_age_seconds\\{scheduler="${name}"\\} (\\S+)$`, 'm').exec(text);
    expect(Number(age?.[1])).toBeGreaterThanOrEqual(0);
    expect(Number(age?.[1])).toBeLessThan(60);
    expect(text).toContain('leaseboard_alert_delivery_queue_depth{alertmanager="alertmanager-1"} 2');
    expect(text).toContain('leaseboard_alert_delivery_consecutive_failures{alertmanager="alertmanager-1"} 3');
    expect(text).toContain('leaseboard_alert_delivery_last_success_age_seconds{alertmanager="alertmanager-1"} 90');
    expect(text).toContain('# TYPE leaseboard_alert_delivery_sent_alerts_total counter');
    expect(text).toContain('leaseboard_alert_delivery_dropped_alerts_total{alertmanager="alertmanager-1"} 1');
  });

  it('gzips the exposition for a client that accepts it: the same text, compressed once per read; plain for the others', async () => {
    // Within one live read (the service's max age) every answer is built from the same metrics text.
    const shared = serviceOn(pool, 2_000, { listMaxAgeMs: 60_000 });
    const ask = (acceptEncoding?: string) =>
      metricsRoute(new Request('http://dashboard.invalid/api/metrics', { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} }), () => shared);
    const [plain, gzipped, again, refused, browser] = await Promise.all([ask(), ask('gzip'), ask('gzip'), ask('gzip;q=0, identity'), ask('gzip, deflate, br')]);
    const text = await plain.text();
    expect(text).toContain(`leaseboard_scheduler_health{scheduler="${name}",health="progressing"} 1`);
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toBe('Accept-Encoding');
    for (const response of [gzipped, again, browser]) {
      expect(response.headers.get('content-encoding')).toBe('gzip');
      expect(response.headers.get('vary')).toBe('Accept-Encoding');
      expect(response.headers.get('content-type')).toBe(plain.headers.get('content-type'));
    }
    const bytes = Buffer.from(await gzipped.arrayBuffer());
    expect(gunzipSync(bytes).toString('utf8')).toBe(text);
    expect(bytes.length).toBeLessThan(Buffer.byteLength(text) / 2);
    expect(Buffer.from(await again.arrayBuffer()).equals(bytes)).toBe(true);
    expect(Buffer.from(await browser.arrayBuffer()).equals(bytes)).toBe(true);
    expect(refused.headers.get('content-encoding')).toBeNull();
    expect(await refused.text()).toBe(text);
  });

  it('when the store is unreadable: observation_ok 0, every health unknown, no stale numbers', async () => {
    const db = switchable(pool);
    const flaky = serviceOn(db, 300);
    await flaky.list();
    const dead = createPool(`postgres://x:y@127.0.0.1:${await freePort()}/z`, { statementTimeoutMs: 300, connectTimeoutMs: 300, max: 1 });
    db.target = dead;
    try {
      const text = (await flaky.metrics()).body;
      expect(promtoolCheck(text).status).toBe(0);
      expect(text).toMatch(/^leaseboard_observation_ok 0$/m);
      expect(text).toContain(`leaseboard_scheduler_health{scheduler="${name}",health="unknown"} 1`);
      expect(text).not.toMatch(/^leaseboard_scheduler_epoch\{/m);
      expect(text).not.toMatch(/^leaseboard_scheduler_renewal_age_seconds\{/m);
      expect(text).toMatch(/^leaseboard_store_durability\{mode="unknown"\} 1$/m);
      expect(text).not.toMatch(/^leaseboard_store_(synchronous_standbys|failover_generation)/m);
    } finally {
      await dead.end();
    }
  });
});
