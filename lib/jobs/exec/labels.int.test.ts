// `leaseboard run --label KEY=VALUE`: a real runner process registers the scheduler with its labels
// on real PostgreSQL (and a bad label is refused before anything is written: exit 2).
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseUrl, uniqueLease, usePool } from '../../../db/testing/pools';
import { entryArgs, JsonLineProcess, ROOT } from '../../child/json-line-process';
import { readOneFacts } from '../../server/live/facts';

describe('leaseboard run --label', () => {
  const pool = usePool();
  const runners: JsonLineProcess[] = [];
  afterEach(() => Promise.all(runners.splice(0).map((runner) => runner.stop(5_000))));

  it('registers the scheduler with the labels given; the display label stays the instance’s', async () => {
    const lease = uniqueLease('exec-labels');
    const runner = new JsonLineProcess({
      name: 'runner',
      entry: 'lib/cli/main.ts',
      args: ['run', '--lease', lease, '--label', 'team=payments', '--label', 'A', '--label', 'env=prod', '--once', '--', 'true'],
      env: { DATABASE_URL: databaseUrl() },
    });
    runners.push(runner);
    await runner.waitFor((line) => line.event === 'registered');
    const read = await readOneFacts(pool, lease);
    expect(read.schedulers[0]?.facts.labels).toEqual({ env: 'prod', team: 'payments' });
    const held = await runner.waitFor((line) => line.event === 'child_started');
    expect(held.occurrence).toMatch(new RegExp(`^${lease}@`));
    const { rows } = await pool.query<{ holder_label: string }>('SELECT holder_label FROM leases WHERE name = $1', [lease]);
    expect(rows[0]?.holder_label).toBe('A');
  });

  it('refuses a label that breaks the rules, naming it; exit 2 and nothing registered', async () => {
    const lease = uniqueLease('exec-labels-bad');
    const refused = spawnSync(process.execPath, [...entryArgs('lib/cli/main.ts'), 'run', '--lease', lease, '--label', 'team=pay/ments', '--', 'true'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, DATABASE_URL: databaseUrl() },
    });
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('--label: label "team": the value must be');
    expect((await readOneFacts(pool, lease)).schedulers).toEqual([]);
  });
});
