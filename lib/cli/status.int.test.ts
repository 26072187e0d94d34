/**
 * `leaseboard status` as a monitoring system runs it: the real CLI, a child process, against real
 * PostgreSQL — a database of its own, since the fleet's verdict covers every scheduler in it.
 * Schedulers are put in each health through the real writers (lib/server/testing/seed.ts); the
 * exit code, the one line and its perfdata, `--json` (validated by the contract's own schemas), an
 * unknown name and an unreachable store (refused, and silent past the timeout) are checked.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../db/free-port';
import { migrateDatabase } from '../../db/migrate';
import { createPool } from '../../db/pool';
import { forceExpire } from '../../db/testing/pools';
import { READER_ROLE } from '../../db/reader-role';
import { withDatabase } from '../../db/testing/worker-database';
import { SchedulerDetailResponseSchema, SchedulerListResponseSchema } from '../api/schemas';
import { changeLabels } from '../actions/labels';
import { setIntent } from '../lease';
import { acquire, register, reporter, serviceOn, sleep } from '../server/testing/seed';
import { entryArgs, ROOT } from '../child/json-line-process';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** The environment of a fresh shell: no LEASEBOARD_ settings but the ones a case gives. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const unset = Object.fromEntries(
    Object.keys(process.env)
      .filter((name) => name.startsWith('LEASEBOARD_') && !name.startsWith('LEASEBOARD_HARNESS_'))
      .map((name) => [name, undefined]),
  );
  return { ...process.env, ...unset, ...extra };
}

// The CLI as the tier starts every child: its prebuilt bundle when there is one, the same sources.
function cli(args: string[], env: Record<string, string>): Promise<Run> {
  const started = performance.now();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...entryArgs('lib/cli/main.ts'), 'status', ...args],
      { cwd: ROOT, env: cleanEnv(env), timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        resolve({ code, stdout, stderr, ms: Math.round(performance.now() - started) });
      },
    );
  });
}

const LINE = /^LEASEBOARD (OK|WARNING|CRITICAL|UNKNOWN) - [^|\n]+( \| [^\n]+)?\n$/;

describe('leaseboard status', () => {
  const adminUrl = inject('adminDatabaseUrl');
  const database = `leaseboard_status_${randomBytes(4).toString('hex')}`;
  /** A login that is a member of the reader role and nothing else (roles are the cluster's: dropped after). */
  const checker = `${database}_check`;
  const url = withDatabase(adminUrl, database);
  let pool: pg.Pool;
  // A read timeout with room for a loaded machine (a fresh process, a fresh login's cold catalog cache): the
  // cases judge the verdict, not the default 2s; the timeout itself is the silent store's case below.
  const env = () => ({ DATABASE_URL: url, LEASEBOARD_READ_TIMEOUT: '15s' });
  const status = (...args: string[]) => cli(args, env());
  const stop: (() => void)[] = [];

  beforeAll(async () => {
    const admin = createPool(adminUrl, { applicationName: 'leaseboard-test', max: 1 });
    await admin.query(`CREATE DATABASE ${database}`);
    await admin.end();
    await migrateDatabase(url);
    pool = createPool(url, { applicationName: 'leaseboard-test', max: 4 });
  }, 120_000);

  afterAll(async () => {
    for (const s of stop) s();
    await pool?.end();
    const admin = createPool(adminUrl, { applicationName: 'leaseboard-test', max: 1 });
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.query(`DROP ROLE IF EXISTS ${checker}`);
    await admin.end();
  });

  /** Waits until the status service (the one the CLI reads through) judges `name` as `health`. */
  async function until(name: string, health: string) {
    const service = serviceOn(pool);
    await expect
      .poll(
        async () => {
          const detail = await service.detail(name);
          return detail.ok ? detail.value.status.health : detail.error.kind;
        },
        { timeout: 20_000, interval: 100 },
      )
      .toBe(health);
  }

  // Slow cadences (reports every minute, so silence takes three; a ttl of 10 min) keep each health
  // steady for the whole file while child processes start on a busy machine.
  const steady = { reportEveryMs: 60_000, stallAfterMs: 1_000 };
  const TTL = 600_000;

  async function progressing(name: string) {
    await register(pool, name, { ...steady, stallAfterMs: 600_000 });
    await reporter(pool, await acquire(pool, name, TTL), 60_000).report(`${name}@2026-01-01T00:00:00Z`, 1);
    await until(name, 'progressing');
  }

  async function idle(name: string) {
    await register(pool, name, steady);
    await reporter(pool, await acquire(pool, name, TTL), 60_000).report(null, null);
    await until(name, 'idle');
  }

  async function disabled(name: string) {
    await progressing(name);
    await setIntent(pool, name, { disabled: true, by: 'sre-on-call', reason: 'maintenance window' });
    await until(name, 'disabled');
  }

  /** Held, no report yet: no evidence of work either way. */
  async function unknown(name: string) {
    await register(pool, name, steady);
    await acquire(pool, name, TTL);
    await until(name, 'unknown');
  }

  async function noLeader(name: string) {
    await progressing(name);
    await forceExpire(pool, name);
    await until(name, 'no_leader');
  }

  /** Reports every 300 ms (gap threshold 3 s), never advancing after the first: stalled once 4 s pass. */
  async function stalled(name: string) {
    await register(pool, name, { reportEveryMs: 1_000, stallAfterMs: 4_000 });
    const r = reporter(pool, await acquire(pool, name, TTL));
    await r.report(`${name}@2026-01-01T00:00:00Z`, 1);
    // One report at a time, so seqs arrive in order (a concurrent pair could read as lost reports).
    let reporting = true;
    stop.push(() => (reporting = false));
    void (async () => {
      while (reporting) {
        await r.report(`${name}@2026-01-01T00:00:00Z`, 1);
        await sleep(300);
      }
    })().catch(() => {});
    await until(name, 'stalled');
  }

  it('given no scheduler at all: UNKNOWN (3), nothing to judge is not OK', async () => {
    const run = await status();
    expect(run.stdout).toMatch(LINE);
    expect(run.stdout).toContain('LEASEBOARD UNKNOWN - no schedulers in this database');
    expect(run.code).toBe(3);
  });

  it('given healthy schedulers: OK (0), the fleet and each by name', async () => {
    await Promise.all([progressing('p-one'), idle('i-one')]);
    const [fleet, p, i] = await Promise.all([status(), status('p-one'), status('i-one')]);
    expect(fleet.stdout).toBe(
      'LEASEBOARD OK - 2 schedulers: 1 idle, 1 progressing | stalled=0;;0;0 no_leader=0;;0;0 unknown=0;;;0 disabled=0;0;;0 idle=1;;;0 progressing=1;;;0 total=2;;;0\n',
    );
    expect(fleet.code).toBe(0);
    expect(p.stdout).toMatch(LINE);
    expect(p.stdout).toMatch(
      /^LEASEBOARD OK - p-one progressing: lease renewed .* \| renewal_age=\d+\.\d{3}s;;;0 expires_in=\d+\.\d{3}s last_report_age=\d+\.\d{3}s;;;0 last_advance_age=\d+\.\d{3}s;;;0 epoch=\d+;;;0\n$/,
    );
    expect(p.code).toBe(0);
    expect(i.stdout).toMatch(/^LEASEBOARD OK - i-one idle: /);
    expect(i.code).toBe(0);
  });

  it('given one disabled by an operator: WARNING (1)', async () => {
    await disabled('d-one');
    const [fleet, d] = await Promise.all([status(), status('d-one')]);
    expect(fleet.stdout).toMatch(/^LEASEBOARD WARNING - 3 schedulers: 1 disabled \(d-one\), 1 idle, 1 progressing \| .*disabled=1;0;;0 /);
    expect(fleet.code).toBe(1);
    expect(d.stdout).toMatch(/^LEASEBOARD WARNING - d-one disabled: disabled by sre-on-call .*: maintenance window/);
    expect(d.code).toBe(1);
  });

  it('given one held without a report: UNKNOWN (3), never OK; its perfdata has no ages (U)', async () => {
    await unknown('u-one');
    const [fleet, u] = await Promise.all([status(), status('u-one')]);
    expect(fleet.stdout).toMatch(/^LEASEBOARD UNKNOWN - 4 schedulers: 1 unknown \(u-one\), 1 disabled \(d-one\), 1 idle, 1 progressing \| /);
    expect(fleet.code).toBe(3);
    expect(u.stdout).toMatch(/^LEASEBOARD UNKNOWN - u-one unknown: .*has not reported yet.* last_report_age=U;;;0 last_advance_age=U;;;0 /);
    expect(u.code).toBe(3);
  });

  it('given one stalled and one without a leader: CRITICAL (2); the worst wins, every count in the perfdata', async () => {
    await Promise.all([stalled('s-one'), noLeader('n-one')]);
    const [fleet, s, n] = await Promise.all([status(), status('s-one'), status('n-one')]);
    expect(fleet.stdout).toMatch(LINE);
    expect(fleet.stdout).toBe(
      'LEASEBOARD CRITICAL - 6 schedulers: 1 stalled (s-one), 1 no_leader (n-one), 1 unknown (u-one), 1 disabled (d-one), 1 idle, 1 progressing' +
        ' | stalled=1;;0;0 no_leader=1;;0;0 unknown=1;;;0 disabled=1;0;;0 idle=1;;;0 progressing=1;;;0 total=6;;;0\n',
    );
    expect(fleet.code).toBe(2);
    expect(s.stdout).toMatch(/^LEASEBOARD CRITICAL - s-one stalled: .*> stall threshold 4 s/);
    expect(s.code).toBe(2);
    expect(n.stdout).toMatch(/^LEASEBOARD CRITICAL - n-one no_leader: lease of inst_\w+ \(A\), epoch \d+ expired/);
    expect(n.code).toBe(2);
  });

  it("needs only a reader's login (a member of leaseboard_reader, LEASEBOARD_READER_DATABASE_URL alone): the same verdict", async () => {
    const admin = createPool(adminUrl, { applicationName: 'leaseboard-test', max: 1 });
    // With a password: the embedded server asks for one over TCP (SCRAM), the machine's may trust.
    const password = randomBytes(12).toString('hex');
    await admin.query(`CREATE ROLE ${checker} LOGIN PASSWORD '${password}' IN ROLE ${READER_ROLE}`);
    await admin.end();
    const readerUrl = new URL(url);
    readerUrl.username = checker;
    readerUrl.password = password;
    const run = await cli([], { LEASEBOARD_READER_DATABASE_URL: readerUrl.toString(), LEASEBOARD_READ_TIMEOUT: '15s' });
    expect(run.stdout).toMatch(/^LEASEBOARD CRITICAL - 6 schedulers: 1 stalled \(s-one\)/);
    expect(run.code).toBe(2);
  });

  it('--json prints the API body (list, detail with conditions, or the error) with the same exit code', async () => {
    const [list, detail, missing] = await Promise.all([status('--json'), status('s-one', '--json'), status('nobody-here', '--json')]);
    const body = SchedulerListResponseSchema.parse(JSON.parse(list.stdout));
    expect(body.counts).toEqual({ stalled: 1, no_leader: 1, unknown: 1, disabled: 1, idle: 1, progressing: 1 });
    expect(body.schedulers.map((s) => s.name)).toEqual(['s-one', 'n-one', 'u-one', 'd-one', 'i-one', 'p-one']);
    expect(list.code).toBe(2);
    const one = SchedulerDetailResponseSchema.parse(JSON.parse(detail.stdout));
    expect(one.status.health).toBe('stalled');
    expect(one.conditions.map((c) => [c.type, c.status, c.reason])).toEqual([
      ['LeaseHeld', 'True', 'Held'],
      ['Progressing', 'False', 'Stalled'],
      ['Observed', 'True', 'Reporting'],
      ['Enabled', 'True', 'NoIntent'],
    ]);
    expect(detail.code).toBe(2);
    expect(JSON.parse(missing.stdout)).toEqual({ error: { code: 'unknown_scheduler', message: 'no scheduler with that name' } });
    expect(missing.code).toBe(3);
  });

  it('--selector judges the schedulers it matches: each exit code from its worst, counts as perfdata, --json the API body', async () => {
    const teams: Record<string, string> = { 'p-one': 'payments', 'i-one': 'payments', 'd-one': 'web', 'u-one': 'search', 's-one': 'core', 'n-one': 'core' };
    for (const [name, team] of Object.entries(teams)) {
      const changed = await changeLabels(pool, name, { labels: { team }, by: 'sre-on-call', reason: 'team ownership' }, { identifiedBy: 'token' });
      expect(changed.kind).toBe('changed');
    }
    const [ok, warning, critical, unknown, either, none, json] = await Promise.all([
      status('--selector', 'team=payments'),
      status('-l', 'team=web'),
      status('--selector', 'team=core'),
      status('--selector', 'team=search'),
      status('--selector', 'team in (payments, web)'),
      status('--selector', 'team=nobody'),
      status('--selector', 'team=core', '--json'),
    ]);
    expect(ok.stdout).toBe(
      'LEASEBOARD OK - 2 schedulers matching team=payments: 1 idle, 1 progressing | stalled=0;;0;0 no_leader=0;;0;0 unknown=0;;;0 disabled=0;0;;0 idle=1;;;0 progressing=1;;;0 total=2;;;0\n',
    );
    expect(ok.code).toBe(0);
    expect(warning.stdout).toMatch(/^LEASEBOARD WARNING - 1 scheduler matching team=web: 1 disabled \(d-one\) \| .*disabled=1;0;;0 .*total=1;;;0\n$/);
    expect(warning.code).toBe(1);
    expect(critical.stdout).toMatch(
      /^LEASEBOARD CRITICAL - 2 schedulers matching team=core: 1 stalled \(s-one\), 1 no_leader \(n-one\) \| stalled=1;;0;0 no_leader=1;;0;0 unknown=0;;;0 /,
    );
    expect(critical.code).toBe(2);
    expect(unknown.stdout).toMatch(/^LEASEBOARD UNKNOWN - 1 scheduler matching team=search: 1 unknown \(u-one\) \| /);
    expect(unknown.code).toBe(3);
    expect(either.stdout).toMatch(/^LEASEBOARD WARNING - 3 schedulers matching team in \(payments, web\): 1 disabled \(d-one\), 1 idle, 1 progressing \| /);
    expect(either.code).toBe(1);
    // Nothing matched is nothing judged: never OK.
    expect(none.stdout).toMatch(/^LEASEBOARD UNKNOWN - no scheduler matches the selector "team=nobody": nothing to judge \| .*total=0;;;0\n$/);
    expect(none.code).toBe(3);
    const body = SchedulerListResponseSchema.parse(JSON.parse(json.stdout));
    expect(body.schedulers.map((s) => [s.name, s.labels])).toEqual([
      ['s-one', { team: 'core' }],
      ['n-one', { team: 'core' }],
    ]);
    expect(body.matched).toEqual({ stalled: 1, no_leader: 1, unknown: 0, disabled: 0, idle: 0, progressing: 0 });
    expect(body.total).toBe(2);
    expect(json.code).toBe(2);
  });

  it('given an unknown name: UNKNOWN (3), naming it', async () => {
    const run = await status('nobody-here');
    expect(run.stdout).toBe('LEASEBOARD UNKNOWN - no scheduler "nobody-here"\n');
    expect(run.code).toBe(3);
  });

  it("given bad usage: UNKNOWN (3) on stdout, naming it; a malformed selector with the parser's own words", async () => {
    const [selector, both, timeout, two] = await Promise.all([
      status('--selector', 'team in (a'),
      status('p-one', '--selector', 'team=payments'),
      status('--timeout', '5'),
      status('a', 'b'),
    ]);
    expect(selector.stdout).toBe('LEASEBOARD UNKNOWN - status: --selector: selector: unclosed "(" in "team in (a" (leaseboard status --help)\n');
    expect(both.stdout).toContain('LEASEBOARD UNKNOWN - status: --selector judges the schedulers it matches: give a NAME or a selector, not both');
    expect(timeout.stdout).toContain('LEASEBOARD UNKNOWN - status: --timeout: "5" has no unit');
    expect(two.stdout).toContain('LEASEBOARD UNKNOWN - status: one scheduler name at most, got 2');
    for (const run of [selector, both, timeout, two]) expect(run.code).toBe(3);
  });

  it('given a store that refuses connections: UNKNOWN (3), one line naming why', async () => {
    const refused = `postgres://nobody:secret-never-shown@127.0.0.1:${await freePort()}/nothing`;
    const [fleet, one] = await Promise.all([cli([], { DATABASE_URL: refused }), cli(['p-one'], { DATABASE_URL: refused })]);
    expect(fleet.stdout).toBe('LEASEBOARD UNKNOWN - status store unreadable (ECONNREFUSED; never read): every scheduler unknown\n');
    expect(one.stdout).toBe('LEASEBOARD UNKNOWN - the status store could not be read (ECONNREFUSED): p-one unknown\n');
    for (const run of [fleet, one]) {
      expect(run.code).toBe(3);
      expect(run.stdout + run.stderr).not.toContain('secret-never-shown');
    }
  });

  it('given a store that accepts and never answers: UNKNOWN (3) within the timeout (flag or setting)', async () => {
    const silent = net.createServer(() => {}); // holds every connection open, says nothing
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    stop.push(() => silent.close());
    const port = (silent.address() as net.AddressInfo).port;
    const hung = `postgres://nobody:x@127.0.0.1:${port}/nothing`;
    const [flag, setting, baseline] = await Promise.all([
      cli(['--timeout', '1s'], { DATABASE_URL: hung }),
      cli(['p-one'], { DATABASE_URL: hung, LEASEBOARD_READ_TIMEOUT: '1s' }),
      // What starting the command costs here: the same process against a store that refuses at once.
      cli([], { DATABASE_URL: `postgres://nobody:x@127.0.0.1:${await freePort()}/nothing` }),
    ]);
    expect(flag.stdout).toBe('LEASEBOARD UNKNOWN - status store unreadable (timeout; never read): every scheduler unknown\n');
    expect(setting.stdout).toBe('LEASEBOARD UNKNOWN - the status store did not answer in time (timeout): p-one unknown\n');
    for (const run of [flag, setting]) {
      expect(run.code).toBe(3);
      // The timeout, and the cost of starting a process beside it, with room for a busy machine.
      expect(run.ms).toBeLessThan(baseline.ms + 1_000 + 5_000);
    }
    console.log(`status against a silent store, timeout 1s: ${flag.ms} ms (flag), ${setting.ms} ms (setting); a refused one: ${baseline.ms} ms`);
  });
});
