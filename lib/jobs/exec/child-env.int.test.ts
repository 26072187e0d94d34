// What `leaseboard run` hands its child's environment: a real runner process and a real child printing
// its environment (`env`, one variable a line, on the runner's stderr). An allow-list — PATH, HOME, LANG,
// TZ, USER, the LEASEBOARD_* variables meant for the job (lease, epoch, occurrence), the names given with
// --pass-env — never Leaseboard's secrets (database URLs, tokens, passwords) nor anything else the runner had.
import { afterEach, describe, expect, it } from 'vitest';
import { databaseUrl, uniqueLease, usePool } from '../../../db/testing/pools';
import { JsonLineProcess } from '../../child/json-line-process';

const FAST = ['--ttl', '3s', '--report-every', '1s', '--grace', '2s'];
const SECRETS = {
  LEASEBOARD_READER_DATABASE_URL: 'postgres://reader:reader-password-1@db.internal/leaseboard',
  LEASEBOARD_SCHEDULER_DATABASE_URL: 'postgres://sched:scheduler-password-2@db.internal/leaseboard',
  LEASEBOARD_OPERATOR_TOKEN: 'operator-token-secret-0123456789abcdef',
  LEASEBOARD_ARCHIVE_TOKEN: 'archive-token-secret-3',
  PGPASSWORD: 'pg-password-4',
  AWS_SECRET_ACCESS_KEY: 'aws-secret-5',
};

describe('leaseboard run: the child’s environment', () => {
  usePool();
  const runners: JsonLineProcess[] = [];
  afterEach(async () => {
    await Promise.all(runners.splice(0).map((runner) => runner.stop(5_000)));
  });

  /** Runs `env` once under a fresh lease; the child's variables, by name. */
  async function childEnvironment(flags: string[], env: Record<string, string>): Promise<Map<string, string>> {
    const lease = uniqueLease('exec-env');
    const runner = new JsonLineProcess({
      name: 'runner',
      entry: 'lib/cli/main.ts',
      args: ['run', '--lease', lease, '--once', ...FAST, ...flags, '--', 'env'],
      env: { DATABASE_URL: databaseUrl(), LANG: 'C.UTF-8', TZ: 'Europe/Paris', ...SECRETS, ...env },
    });
    runners.push(runner);
    expect(await runner.exit()).toBe(0);
    const variables = new Map<string, string>();
    for (const line of runner.lines) {
      if (line.event !== 'stderr') continue;
      const text = String(line.text);
      const equals = text.indexOf('=');
      if (equals > 0) variables.set(text.slice(0, equals), text.slice(equals + 1));
    }
    return variables;
  }

  it('gets PATH, HOME, LANG, TZ and its lease, epoch and occurrence; no database URL, token, password or other variable of the runner', async () => {
    const child = await childEnvironment([], { JOB_SETTING: 'not asked for' });
    for (const name of ['PATH', 'HOME', 'LANG', 'TZ', 'LEASEBOARD_LEASE', 'LEASEBOARD_EPOCH', 'LEASEBOARD_OCCURRENCE'])
      expect(child.has(name), name).toBe(true);
    expect(child.get('TZ')).toBe('Europe/Paris');
    expect(Number(child.get('LEASEBOARD_EPOCH'))).toBeGreaterThan(0);
    const leaked = [...child.keys()].filter(
      (name) => !/^(PATH|HOME|LANG|LC_[A-Z]+|TZ|USER|LOGNAME|SHELL|TERM|TMPDIR|PWD|SHLVL|_|LEASEBOARD_(LEASE|EPOCH|OCCURRENCE))$/.test(name),
    );
    expect(leaked, 'variables the runner had that the child got').toEqual([]);
    const values = [...child.values()].join('\n');
    for (const secret of [...Object.values(SECRETS), databaseUrl()]) expect(values).not.toContain(secret);
  });

  it('--pass-env names more variables to pass (repeated or comma-separated); a secret’s name is refused with a message', async () => {
    const child = await childEnvironment(['--pass-env', 'JOB_SETTING,JOB_REGION', '--pass-env', 'JOB_MODE'], {
      JOB_SETTING: 'fast',
      JOB_REGION: 'eu',
      JOB_MODE: 'full',
      JOB_OTHER: 'no',
    });
    expect([child.get('JOB_SETTING'), child.get('JOB_REGION'), child.get('JOB_MODE'), child.get('JOB_OTHER')]).toEqual(['fast', 'eu', 'full', undefined]);

    const refused = new JsonLineProcess({
      name: 'refused',
      entry: 'lib/cli/main.ts',
      args: ['run', '--lease', uniqueLease('exec-env'), '--once', '--pass-env', 'LEASEBOARD_OPERATOR_TOKEN', '--', 'env'],
      env: { DATABASE_URL: databaseUrl(), ...SECRETS },
    });
    runners.push(refused);
    expect(await refused.exit()).toBe(2);
    expect(refused.lines.some((line) => line.event === 'stderr' && /--pass-env.*LEASEBOARD_OPERATOR_TOKEN.*secret/.test(String(line.text)))).toBe(true);
  });
});
