// `npm run intent` (`leaseboard intent`) as an operator runs it, a real process against real PostgreSQL: one scheduler
// by name, or every scheduler a label selector matches under one reason — each change its own audit row, the ones
// already so left alone — and the selector's bad input (malformed, matching nothing, both targets named) refused
// with exit 2 and nothing written.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { databaseUrl, uniqueLease, usePool } from '../../db/testing/pools';
import { changeLabels } from '../actions/labels';
import { setIntent } from '../lease';
import { register } from '../server/testing/seed';
import { runCommand } from './testing/command';

const intent = (args: string[]) => runCommand(['--import', 'tsx', 'scripts/intent.ts', ...args], { DATABASE_URL: databaseUrl() });

describe('npm run intent', () => {
  const pool = usePool();
  // A team of its own: the worker's database holds other files' labelled schedulers.
  const team = `t-${randomBytes(4).toString('hex')}`;
  const names = { prod: [uniqueLease('intent-prod'), uniqueLease('intent-prod')], dev: uniqueLease('intent-dev') };

  async function labelled(name: string, env: string) {
    await register(pool, name);
    const changed = await changeLabels(pool, name, { labels: { team, env }, by: 'sre', reason: 'team ownership' }, { identifiedBy: 'token' });
    expect(changed.kind).toBe('changed');
  }

  const auditRows = async (name: string) =>
    (await pool.query<{ disabled: boolean; by: string; reason: string }>('SELECT disabled, by, reason FROM intent_audit WHERE lease = $1 ORDER BY id', [name]))
      .rows;

  it('disables every scheduler a selector matches, one audit row each, and leaves one already disabled alone', async () => {
    for (const name of names.prod) await labelled(name, 'prod');
    await labelled(names.dev, 'dev');
    await setIntent(pool, names.prod[1]!, { disabled: true, by: 'earlier', reason: 'already off' });

    const run = intent(['--selector', `team=${team},env!=dev`, '--disable', '--by', 'oncall', '--reason', 'database upgrade']);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      selector: `team=${team},env!=dev`,
      to: 'disabled',
      changed: [names.prod[0]],
      unchanged: [names.prod[1]],
      by: 'oncall',
    });
    expect(await auditRows(names.prod[0]!)).toEqual([{ disabled: true, by: 'oncall', reason: 'database upgrade' }]);
    expect((await auditRows(names.prod[1]!)).map((row) => row.by)).toEqual(['earlier']);
    expect(await auditRows(names.dev), 'env=dev is not matched').toEqual([]);

    // Again: every match is already disabled, nothing recorded, exit 0.
    const again = intent(['--selector', `team=${team},env!=dev`, '--disable', '--by', 'oncall', '--reason', 'database upgrade']);
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(/is already disabled \(2\); nothing recorded/);
    expect(await auditRows(names.prod[0]!)).toHaveLength(1);

    // And one by name, as before.
    const one = intent(['--lease', names.dev, '--disable', '--by', 'oncall', '--reason', 'dev too']);
    expect(one.status).toBe(0);
    expect(JSON.parse(one.stdout)).toMatchObject({ lease: names.dev, disabled: true, from: 'enabled' });
  });

  it.each([
    [['--selector', 'team in (payments'], /^intent: selector: unclosed "\("/],
    [['--selector', `team=${randomBytes(4).toString('hex')}-nobody`], /matches no scheduler; nothing changed/],
    [['--selector', 'team=x', '--lease', 'x'], /exactly one of --lease NAME or --selector S/],
    [[], /exactly one of --lease NAME or --selector S/],
  ])('refuses %j with exit 2 and writes nothing', async (target, message) => {
    const before = (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM intent_audit')).rows[0]!.n;
    const run = intent([...target, '--enable', '--by', 'oncall', '--reason', 'why']);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(message);
    expect((await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM intent_audit')).rows[0]!.n).toBe(before);
  });
});
