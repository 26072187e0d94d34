// /api/metrics on real PostgreSQL: valid Prometheus text (checked by
// `promtool check metrics`, required — CI installs Debian package
// `prometheus`), labels limited to scheduler and its state (health), label
// values escaped, nothing stale when the store is unreadable.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../db/free-port';
import { createPool } from '../../../db/pool';
import { uniqueLease, usePool } from '../../../db/testing/pools';
import { setIntent } from '../../lease/intent';
import { metricsRoute } from '../http/handlers';
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
  beforeAll(async () => {
    await register(pool, name);
    const grant = await acquire(pool, name);
    await reporter(pool, grant).report(`${name}@2026-01-01T00:00:00Z`, 3);
    const off = uniqueLease('metrics-off');
    await register(pool, off);
    await setIntent(pool, off, { disabled: true, by: 'sre', reason: 'test' });
    await register(pool, `${uniqueLease('metrics-odd')} "quoted" \\ back\nslash`); // escaping
  });

  it('passes `promtool check metrics`, with only scheduler/health/state labels and no holder tokens', async () => {
    const response = await metricsRoute(() => service);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await response.text();
    const check = promtoolCheck(text);
    expect(check.output).toBe('');
    expect(check.status).toBe(0);
    expect([...labelNames(text)].sort()).toEqual(['health', 'scheduler']);
    expect(text).not.toMatch(/inst_/);
    expect(text).toContain(`leaseboard_scheduler_health{scheduler="${name}",health="progressing"} 1`);
    expect(text).toContain(`leaseboard_scheduler_epoch{scheduler="${name}"} 1`);
    expect(text).toMatch(/^leaseboard_observation_ok 1$/m);
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
    } finally {
      await dead.end();
    }
  });
});
