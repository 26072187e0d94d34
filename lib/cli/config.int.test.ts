/**
 * `leaseboard config` and the dashboard's start-up, as real processes: the
 * effective configuration with each value's source (secrets redacted), and a
 * mistyped LEASEBOARD_ variable, an out-of-range duration or an unknown file
 * key stopping both with exit 2 and a message naming it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { entryArgs, ROOT } from '../child/json-line-process';

/** The environment of a fresh shell: no LEASEBOARD_ settings but the ones a case gives. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  // An undefined value leaves the variable out of the child's environment.
  const unset = Object.fromEntries(
    Object.keys(process.env)
      .filter((name) => name.startsWith('LEASEBOARD_') && !name.startsWith('LEASEBOARD_HARNESS_'))
      .map((name) => [name, undefined]),
  );
  return { ...process.env, ...unset, DATABASE_URL: 'postgres://owner:pw-never-shown@127.0.0.1:5432/leaseboard', ...extra };
}

// The CLI as the tier starts every child: its prebuilt bundle when there is one, the same sources.
const cli = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [...entryArgs('lib/cli/main.ts'), ...args], { cwd: ROOT, encoding: 'utf8', env: cleanEnv(env), timeout: 30_000 });

const dir = mkdtempSync(path.join(os.tmpdir(), 'leaseboard-config-cli-'));
const configFile = (name: string, text: string) => {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
};

interface Shown {
  env: string;
  value: string;
  source: string;
}

describe('leaseboard config', () => {
  it('prints every setting with its source — default, file, environment, flag — secrets redacted; exit 0', () => {
    const file = configFile('team.yaml', 'poll_interval: 3s\nread_timeout: 9s\n');
    const r = cli(['config', '--config', file, '--json', '--port', '8080'], { LEASEBOARD_READ_TIMEOUT: '5s' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const shown = new Map((JSON.parse(r.stdout) as { settings: Shown[] }).settings.map((s) => [s.env, s]));
    expect(shown.get('LEASEBOARD_POLL_INTERVAL')).toMatchObject({ value: '3s', source: 'file' });
    expect(shown.get('LEASEBOARD_READ_TIMEOUT')).toMatchObject({ value: '5s', source: 'environment' });
    expect(shown.get('PORT')).toMatchObject({ value: '8080', source: 'flag' });
    expect(shown.get('LEASEBOARD_RETAIN_REPORTS')).toMatchObject({ value: '7d', source: 'default' });
    expect(shown.get('DATABASE_URL')).toMatchObject({ value: 'postgres://owner:***@127.0.0.1:5432/leaseboard', source: 'environment' });
    expect(r.stdout).not.toContain('pw-never-shown');
  });

  it('prints a table for people, one setting a line with its source', () => {
    const r = cli(['config'], { LEASEBOARD_ALERT_EVALUATE_EVERY: '10s' });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^LEASEBOARD_ALERT_EVALUATE_EVERY +10s +environment$/m);
    expect(r.stdout).toMatch(/^LEASEBOARD_READ_TIMEOUT +2s +default$/m);
    expect(r.stdout).not.toContain('pw-never-shown');
  });

  it.each([
    [{ LEASEBOARD_READ_TIMOUT: '5s' }, 'LEASEBOARD_READ_TIMOUT: not a setting (did you mean LEASEBOARD_READ_TIMEOUT?)'],
    [{ LEASEBOARD_ALERT_EVALUATE_EVERY: '2m' }, 'LEASEBOARD_ALERT_EVALUATE_EVERY: 2m is outside 1s–1m'],
    [{ LEASEBOARD_ALERT_EVALUATE_EVERY: '5000' }, 'LEASEBOARD_ALERT_EVALUATE_EVERY: "5000" has no unit: add one, e.g. 5000ms or 5s'],
    [{ LEASEBOARD_POLL_INTERVAL_MS: '2000' }, 'LEASEBOARD_POLL_INTERVAL_MS: renamed: set LEASEBOARD_POLL_INTERVAL instead'],
    // What start-up refuses of the settings taken together, refused the same way.
    [{ LEASEBOARD_LIST_MAX_AGE: '5s' }, 'LEASEBOARD_LIST_MAX_AGE: 5s is more than half LEASEBOARD_POLL_INTERVAL (2s)'],
    [{ LEASEBOARD_OPERATORS: 'ops-team' }, 'LEASEBOARD_OPERATORS: must be a comma-separated list of email addresses'],
  ])('given %j, then refused naming it; exit 2, nothing on stdout', (env, message) => {
    const r = cli(['config'], env);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stdout).toBe('');
  });

  it('given alert settings that do not hold together, then a warning that the dashboard would leave the evaluator out, as start-up does; exit 0', () => {
    const r = cli(['config'], { LEASEBOARD_ALERT_RESEND_EVERY: '10s', LEASEBOARD_ALERT_EVALUATE_EVERY: '20s' });
    expect(r.status).toBe(0);
    expect(r.stderr).toContain('config: warning: the dashboard would leave leaseboard-alerts out: ');
    expect(r.stderr).toContain('LEASEBOARD_ALERT_RESEND_EVERY (10s) must be ≥ LEASEBOARD_ALERT_EVALUATE_EVERY (20s)');
  });

  it('given an unknown key in the file, then refused naming the file and the key; exit 2', () => {
    const r = cli(['config', '--config', configFile('typo.yaml', 'retain_report: 3d\n')]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('typo.yaml: retain_report: not a setting (did you mean retain_reports?)');
  });
});

describe('the dashboard start-up (leaseboard start)', () => {
  // Through tsx, as `npm start` runs it; it must stop before it builds or serves anything.
  const start = (env: Record<string, string>, args: string[] = []) =>
    spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'lib/cli/main.ts'), 'start', '--port', '0', ...args], {
      cwd: ROOT,
      encoding: 'utf8',
      env: cleanEnv(env),
      timeout: 60_000,
    });

  it.each([
    [{ LEASEBOARD_OPERATOR_TOKNE: 'x'.repeat(30) }, 'LEASEBOARD_OPERATOR_TOKNE: not a setting (did you mean LEASEBOARD_OPERATOR_TOKEN?)'],
    [{ LEASEBOARD_READ_TIMEOUT: '45s' }, 'LEASEBOARD_READ_TIMEOUT: 45s is outside 100ms–30s'],
  ])('given %j, then it stops with exit 2 and a message naming it', (env, message) => {
    const r = start(env);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`serve: config: ${message}`);
    expect(r.stdout).not.toContain('listening');
  });

  it('given an unknown key in --config FILE, then it stops the same way', () => {
    const r = start({}, ['--config', configFile('start.yaml', 'read_timeout: 2s\npoll_intervall: 2s\n')]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('start.yaml: poll_intervall: not a setting (did you mean poll_interval?)');
  });
});
