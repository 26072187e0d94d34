// What a running demo records for the command-line tools: the login of each kind of work, never the
// migrator's (a superuser in the embedded database). Real commands join it as the least role they need:
// `npm run intent` as the operator login (the others recorded as unusable, so only that one can work),
// with its audit row; the file holds no URL of the migrator.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropLoginRoles, ensureLoginRoles, type LoginUrls } from '../../db/roles';
import { databaseUrl, uniqueLease, usePool } from '../../db/testing/pools';
import { register } from '../server/testing/seed';
import { runCommand } from './testing/command';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lb-running-'));
const databaseOf = (url: string) => new URL(url).pathname.slice(1);

const run = (script: string, args: string[]) => runCommand(['--import', 'tsx', script, ...args], { LEASEBOARD_DATA_DIR: dir });

describe("the running demo's address for the command-line tools", () => {
  const admin = usePool();
  let logins: LoginUrls;

  beforeAll(async () => {
    const client = new pg.Client({ connectionString: databaseUrl() });
    await client.connect();
    logins = await ensureLoginRoles(client, databaseUrl());
    await client.end();
  });
  afterAll(async () => {
    delete process.env.LEASEBOARD_DATA_DIR;
    rmSync(dir, { recursive: true, force: true });
    const client = new pg.Client({ connectionString: databaseUrl() });
    await client.connect();
    await dropLoginRoles(client, databaseOf(databaseUrl()));
    await client.end();
  });

  it('records only the per-role logins, and npm run intent acts as the operator login', async () => {
    const { writeRunningDatabase } = await import('./running-database');
    process.env.LEASEBOARD_DATA_DIR = dir;
    const unusable = 'postgres://nobody:x@127.0.0.1:9/none';
    writeRunningDatabase({ reader: unusable, operator: logins.operator, scheduler: unusable });
    const recorded = readFileSync(path.join(dir, 'running.json'), 'utf8');
    expect(recorded).not.toContain(databaseUrl());
    expect(recorded).not.toContain(`//${new URL(databaseUrl()).username}@`);

    const lease = uniqueLease('running');
    await register(admin, lease);
    const answer = run('scripts/intent.ts', ['--lease', lease, '--disable', '--by', 'oncall', '--reason', 'maintenance']);
    expect(answer.stderr).toBe('');
    expect(answer.status).toBe(0);
    const { rows } = await admin.query('SELECT "by", identified_by FROM intent_audit WHERE lease = $1', [lease]);
    expect(rows).toEqual([{ by: 'oncall', identified_by: 'cli' }]);
  });
});
