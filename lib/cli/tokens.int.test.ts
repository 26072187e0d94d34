// `leaseboard tokens` as a platform engineer runs it, a real process against real PostgreSQL: a token created for a
// selector is printed once (alone on stdout) and stored only as its salted HMAC, listed with its scopes, refused a
// second live one of the same name, revoked; each change audited as `cli` with who and why. Bad input exits 2 with
// the API's words and writes nothing.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { databaseUrl, usePool } from '../../db/testing/pools';
import { entryArgs } from '../child/json-line-process';
import { runCommand } from './testing/command';

const tokens = (args: string[]) => runCommand([...entryArgs('lib/cli/main.ts'), 'tokens', ...args], { DATABASE_URL: databaseUrl() });

describe('leaseboard tokens', () => {
  const pool = usePool();
  const name = `deploys-${randomBytes(4).toString('hex')}`;
  const counts = async () =>
    (
      await pool.query<{ tokens: number; audit: number }>(
        'SELECT (SELECT count(*) FROM service_tokens)::int AS tokens, (SELECT count(*) FROM service_token_audit)::int AS audit',
      )
    ).rows[0]!;

  it('creates a token shown once, lists it, refuses the name again, and revokes it: each change audited', async () => {
    const created = tokens([
      'create',
      '--name',
      name,
      '--scope',
      'intents',
      '--scope',
      'read',
      '--selector',
      'team=payments',
      '--by',
      'platform',
      '--reason',
      'CI deploys',
    ]);
    expect(created.status).toBe(0);
    expect(created.stdout).toMatch(/^lbs_[0-9a-f]{12}\.[A-Za-z0-9_-]+\n$/);
    const token = created.stdout.trim();
    const id = token.slice('lbs_'.length, 'lbs_'.length + 12);
    expect(created.stderr).toMatch(new RegExp(`^tokens: created ${id}  live  ${name}  intents,read  selector team=payments  by platform  last used never\\n$`));
    expect(created.stderr).not.toContain(token.split('.')[1]);

    // Stored: its id, scopes and selector; never the secret.
    const { rows } = await pool.query<{ row: string }>('SELECT row_to_json(t)::text AS row FROM service_tokens t WHERE id = $1', [id]);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.row).not.toContain(token.split('.')[1]);

    const listed = JSON.parse(tokens(['list', '--json']).stdout) as { tokens: { id: string; name: string; scopes: string[]; revokedAt: string | null }[] };
    expect(listed.tokens.find((t) => t.id === id)).toMatchObject({ name, scopes: ['intents', 'read'], revokedAt: null });
    expect(tokens(['list']).stdout).toMatch(new RegExp(`^${id}  live  ${name}  `, 'm'));

    const before = await counts();
    const again = tokens(['create', '--name', name, '--scope', 'read', '--scheduler', 'a', '--by', 'platform', '--reason', 'again']);
    expect(again.status).toBe(2);
    expect(again.stderr).toMatch(`a live service token is already named ${name}`);
    expect(await counts()).toEqual(before);

    const revoked = tokens(['revoke', id, '--by', 'platform', '--reason', 'rotated']);
    expect(revoked.status).toBe(0);
    expect(JSON.parse(revoked.stdout)).toMatchObject({ id, name, revokedAt: expect.any(String) });
    const audit = await pool.query('SELECT action, by, identified_by, reason FROM service_token_audit WHERE token_id = $1 ORDER BY id', [id]);
    expect(audit.rows).toEqual([
      { action: 'create', by: 'platform', identified_by: 'cli', reason: 'CI deploys' },
      { action: 'revoke', by: 'platform', identified_by: 'cli', reason: 'rotated' },
    ]);
    const twice = tokens(['revoke', id, '--by', 'platform', '--reason', 'rotated']);
    expect(twice.status).toBe(2);
    expect(twice.stderr).toMatch(`no live service token ${id}`);
  });

  it.each([
    [['create', '--name', 'n1', '--selector', 'team=x'], /scopes: at least one/],
    [['create', '--name', 'n1', '--scope', 'admin', '--selector', 'team=x'], /scopes: each one of/],
    [['create', '--name', 'Has Spaces', '--scope', 'read', '--selector', 'team=x'], /name: 1–63 lower-case/],
    [['create', '--name', 'n1', '--scope', 'read', '--selector', 'team=x', '--scheduler', 'a'], /give exactly one/],
    [['create', '--name', 'n1', '--scope', 'read', '--selector', 'team in (x'], /selector: unclosed "\("/],
    [['revoke', 'zz'], /one token id, 12 hex characters/],
    [['revoke', '0123456789ab'], /no live service token 0123456789ab/],
    [['rotate'], /say list, create or revoke/],
  ])('refuses %j with exit 2 and writes nothing', async (args, message) => {
    const before = await counts();
    const run = tokens([...args, '--by', 'platform', '--reason', 'why']);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stdout).toBe('');
    expect(await counts()).toEqual(before);
  });

  it('refuses a change without who, before the database is reached', () => {
    const run = runCommand(
      [...entryArgs('lib/cli/main.ts'), 'tokens', 'create', '--name', 'n1', '--scope', 'read', '--selector', 'team=x', '--reason', 'why'],
      {
        DATABASE_URL: 'postgres://nobody@127.0.0.1:9/none',
      },
    );
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch('--by WHO is required');
  });
});
