/**
 * The configuration: one duration parser, ranges refused by name, the order
 * of precedence, typos and unknown file keys refused with a suggestion, and
 * secrets never printed.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, exportToEnvironment, formatDuration, parseDuration, readConfigFile, resolveConfig, SETTINGS, showConfig, type SettingKey } from '.';
import type { ConfigSources } from './load';
import { showValue } from './settings';
import { nearest } from './suggest';

/** The problems resolveConfig reports, as `name: problem` lines. */
function problemsOf(sources: ConfigSources): string[] {
  try {
    resolveConfig(sources);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.map((p) => `${p.name}: ${p.problem}`);
    throw error;
  }
  throw new Error('expected a ConfigError');
}

const file = (values: Record<string, unknown>) => ({ path: 'leaseboard.yaml', values });

describe('durations', () => {
  it.each([
    ['250ms', 250],
    ['15s', 15_000],
    ['2m', 120_000],
    ['1h', 3_600_000],
    ['7d', 7 * 86_400_000],
    [' 0s ', 0],
  ])('given %j, then %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each([
    ['15000', /"15000" has no unit: add one, e.g. 15000ms or 15s/],
    ['1.5', /"1.5" has no unit/],
    ['1.5h', /expected a duration such as 250ms, 15s, 2m, 1h or 7d, got "1.5h"/],
    ['-1s', /expected a duration/],
    ['15 s', /expected a duration/],
    ['1w', /expected a duration/],
    ['soon', /expected a duration/],
  ])('given %j, then refused: %s', (text, message) => {
    expect(() => parseDuration(text)).toThrow(message);
  });

  it.each([0, 250, 1_000, 90_000, 120_000, 3_600_000, 86_400_000, 1_500])('formats %d ms so that it parses back', (ms) => {
    expect(parseDuration(formatDuration(ms))).toBe(ms);
  });
});

describe('ranges', () => {
  it.each([
    [{ LEASEBOARD_READ_TIMEOUT: '31s' }, 'LEASEBOARD_READ_TIMEOUT: 31s is outside 100ms–30s'],
    [{ LEASEBOARD_READ_TIMEOUT: '2000' }, 'LEASEBOARD_READ_TIMEOUT: "2000" has no unit: add one, e.g. 2000ms or 2s'],
    [{ LEASEBOARD_POLL_INTERVAL: '499ms' }, 'LEASEBOARD_POLL_INTERVAL: 499ms is outside 500ms–1m'],
    [{ LEASEBOARD_STATUS_POOL_MAX: '21' }, 'LEASEBOARD_STATUS_POOL_MAX: 21 is outside 1–20'],
    [{ LEASEBOARD_HEAVY_QUEUE_MAX: '3.5' }, 'LEASEBOARD_HEAVY_QUEUE_MAX: expected a whole number of reads (0–1000), got "3.5"'],
    [{ PORT: '65536' }, 'PORT: 65536 is outside 0–65535'],
    [{ LEASEBOARD_HOST_JOBS: 'no' }, 'LEASEBOARD_HOST_JOBS: one of on, off, got "no"'],
    [{ LEASEBOARD_ALLOW_BROAD_TRUSTED_PROXIES: 'yes' }, 'LEASEBOARD_ALLOW_BROAD_TRUSTED_PROXIES: expected 1 or 0 (true or false), got "yes"'],
    [{ LEASEBOARD_OPERATOR_TOKEN: 'short' }, 'LEASEBOARD_OPERATOR_TOKEN: must be at least 24 characters'],
    [{ LEASEBOARD_RETAIN_REPORTS: '91d' }, 'LEASEBOARD_RETAIN_REPORTS: 91d is outside 10s–90d'],
  ])('given %j, then refused, never clamped: %s', (env, problem) => {
    expect(problemsOf({ env })).toEqual([problem]);
  });

  it('given values at the ends of their ranges, then they are used as given', () => {
    const { settings } = resolveConfig({ env: { LEASEBOARD_READ_TIMEOUT: '100ms', LEASEBOARD_STATUS_POOL_MAX: '20', LEASEBOARD_LIST_MAX_AGE: '0s' } });
    expect([settings.readTimeout, settings.statusPoolMax, settings.listMaxAge]).toEqual([100, 20, 0]);
  });

  it('given several problems, then every one is named at once', () => {
    expect(problemsOf({ env: { LEASEBOARD_READ_TIMEOUT: '1h', PORT: 'x', LEASEBOARD_READ_TIMOUT: '2s' } })).toEqual([
      'LEASEBOARD_READ_TIMOUT: not a setting (did you mean LEASEBOARD_READ_TIMEOUT?); see docs/configuration.md',
      'PORT: expected a whole number of port (0–65535), got "x"',
      'LEASEBOARD_READ_TIMEOUT: 1h is outside 100ms–30s',
    ]);
  });
});

describe('precedence: defaults < file < environment < flags', () => {
  it.each<[string, ConfigSources, SettingKey, unknown, string]>([
    ['nothing', { env: {} }, 'port', 3000, 'default'],
    ['the file', { env: {}, file: file({ port: 8080 }) }, 'port', 8080, 'file'],
    ['the environment over the file', { env: { PORT: '9090' }, file: file({ port: 8080 }) }, 'port', 9090, 'environment'],
    ['a flag over both', { env: { PORT: '9090' }, file: file({ port: 8080 }), flags: { port: '7070' } }, 'port', 7070, 'flag'],
    ['an empty variable: the file', { env: { LEASEBOARD_READ_TIMEOUT: '' }, file: file({ read_timeout: '5s' }) }, 'readTimeout', 5_000, 'file'],
    ['an unset flag: the environment', { env: { HOST: '0.0.0.0' }, flags: { host: undefined } }, 'host', '0.0.0.0', 'environment'],
    ['an empty role (a value of its own)', { env: { LEASEBOARD_READER_ROLE: '' } }, 'readerRole', '', 'environment'],
    ['a list in the file', { env: {}, file: file({ operators: ['a@example.org', 'b@example.org'] }) }, 'operators', 'a@example.org,b@example.org', 'file'],
  ])('given %s, then that value and its source', (_, sources, key, value, source) => {
    const resolved = resolveConfig(sources);
    expect(resolved.settings[key]).toEqual(value);
    expect(resolved.sources[key]).toBe(source);
  });
});

describe('names that are not settings', () => {
  it.each([
    ['LEASEBOARD_READ_TIMOUT', 'not a setting (did you mean LEASEBOARD_READ_TIMEOUT?)'],
    ['LEASEBOARD_RETAIN_REPORT', 'not a setting (did you mean LEASEBOARD_RETAIN_REPORTS?)'],
    ['LEASEBOARD_OPERATOR_TOKENS', 'not a setting (did you mean LEASEBOARD_OPERATOR_TOKEN?)'],
    ['LEASEBOARD_POLL_INTERVAL_MS', 'renamed: set LEASEBOARD_POLL_INTERVAL instead, a duration with its unit (e.g. 15s)'],
    ['LEASEBOARD_ALERT_SCHEDULER_STALLED_FOR_MS', 'renamed: set LEASEBOARD_ALERT_SCHEDULER_STALLED_FOR instead'],
    ['LEASEBOARD_FROBNICATE', 'not a setting; see docs/configuration.md'],
  ])('given %s in the environment, then refused: %s', (variable, problem) => {
    const [line] = problemsOf({ env: { [variable]: '1' } });
    expect(line).toContain(`${variable}: ${problem}`);
  });

  it('given harness switches, the demo’s own and what leaseboard run hands a child, then ignored; other variables too', () => {
    const env = {
      LEASEBOARD_HARNESS_EXIT_WITH_PARENT: '1',
      LEASEBOARD_DEMO_CONTROL_URL: 'http://127.0.0.1:1',
      LEASEBOARD_EPOCH: '7',
      LEASEBOARD_LEASE: 'backup',
      LEASEBOARD_OCCURRENCE: 'backup@2026-01-01T00:00:00Z',
      PATH: '/bin',
      NEXT_PUBLIC_LEASEBOARD_BASE_PATH: '/x',
    };
    expect(resolveConfig({ env }).sources.port).toBe('default');
  });

  it.each([
    [{ read_timout: '2s' }, 'leaseboard.yaml: read_timout: not a setting (did you mean read_timeout?)'],
    [{ LEASEBOARD_READ_TIMEOUT: '2s' }, 'leaseboard.yaml: LEASEBOARD_READ_TIMEOUT: not a setting (did you mean read_timeout?)'],
    [{ colour: 'blue' }, 'leaseboard.yaml: colour: not a setting; see docs/configuration.md'],
  ])('given the file key of %j, then refused: %s', (values, problem) => {
    expect(problemsOf({ env: {}, file: file(values) })[0]).toContain(problem);
  });

  it('given a mapping as a value in the file, or a bare number for a duration, then refused naming the key', () => {
    expect(problemsOf({ env: {}, file: file({ read_timeout: { seconds: 2 }, poll_interval: 2000 }) })).toEqual([
      'leaseboard.yaml: read_timeout: must be a single value (text, number or list), not a mapping',
      'leaseboard.yaml: poll_interval: "2000" has no unit: add one, e.g. 2000ms or 2s',
    ]);
  });

  it.each([
    ['LEASEBOARD_RETAIN_REPORTZ', 'LEASEBOARD_RETAIN_REPORTS'],
    ['leaseboard_host_job', 'LEASEBOARD_HOST_JOBS'],
    ['LEASEBOARD_XYZ', null],
  ])('the nearest name to %s is %s', (name, expected) => {
    expect(
      nearest(
        name,
        Object.values(SETTINGS).map((s) => s.env),
      ),
    ).toBe(expected);
  });
});

describe('secrets', () => {
  const env = {
    DATABASE_URL: 'postgres://owner:hunter2-password@db.internal:5432/leaseboard',
    LEASEBOARD_READER_DATABASE_URL: 'postgres://reader@db.internal/leaseboard',
    LEASEBOARD_OPERATOR_TOKEN: 'tok_abcdefghijklmnopqrstuvwxyz',
    LEASEBOARD_SESSION_SECRET: 's'.repeat(40),
  };

  it('given secrets, then shown redacted: a URL keeps all but its password, a token only that it is set', () => {
    const shown = Object.fromEntries(showConfig(resolveConfig({ env })).map((s) => [s.env, s.value]));
    expect(shown.DATABASE_URL).toBe('postgres://owner:***@db.internal:5432/leaseboard');
    expect(shown.LEASEBOARD_READER_DATABASE_URL).toBe('postgres://reader@db.internal/leaseboard');
    expect(shown.LEASEBOARD_OPERATOR_TOKEN).toBe('*** (set)');
    expect(shown.LEASEBOARD_SESSION_SECRET).toBe('*** (set)');
    expect(shown.LEASEBOARD_ACTIONS_DATABASE_URL).toBe('');
    const printed = JSON.stringify(showConfig(resolveConfig({ env })));
    for (const secret of ['hunter2-password', env.LEASEBOARD_OPERATOR_TOKEN, env.LEASEBOARD_SESSION_SECRET]) expect(printed).not.toContain(secret);
  });

  it('given a secret too short, then the message names it without echoing it', () => {
    const [line] = problemsOf({ env: { LEASEBOARD_SESSION_SECRET: 'hunter2' } });
    expect(line).toBe('LEASEBOARD_SESSION_SECRET: must be at least 32 characters');
  });
});

describe('the file', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'leaseboard-config-'));
  const write = (name: string, text: string) => {
    const file = path.join(dir, name);
    writeFileSync(file, text);
    return file;
  };

  it('given YAML or JSON, then the same settings', () => {
    const yaml = readConfigFile(write('a.yaml', 'read_timeout: 5s\nport: 8080\noperators:\n  - a@example.org\n'));
    const json = readConfigFile(write('a.json', '{ "read_timeout": "5s", "port": 8080, "operators": ["a@example.org"] }'));
    for (const f of [yaml, json]) {
      const { settings, sources } = resolveConfig({ env: {}, file: f });
      expect([settings.readTimeout, settings.port, settings.operators, sources.readTimeout]).toEqual([5_000, 8080, 'a@example.org', 'file']);
    }
  });

  it.each([
    ['b.yaml', 'read_timeout: [unclosed', /b\.yaml: not valid YAML/],
    ['b.json', '{ "read_timeout": ', /b\.json: not valid JSON/],
    ['c.yaml', '- 1\n- 2\n', /c\.yaml: must be a mapping of setting keys to values/],
  ])('given %s that is not a mapping of settings, then refused naming the file', (name, text, message) => {
    expect(() => readConfigFile(write(name, text))).toThrow(message);
  });

  it('given no such file, then refused naming it', () => {
    expect(() => readConfigFile(path.join(dir, 'missing.yaml'))).toThrow(/missing\.yaml: cannot read the configuration file \(ENOENT\)/);
  });

  it('hands values from the file and flags on as variables, so a process it starts resolves the same', () => {
    const resolved = resolveConfig({ env: {}, file: file({ read_timeout: '5s' }), flags: { port: '8080' } });
    const env: Record<string, string | undefined> = {};
    exportToEnvironment(resolved, env);
    expect(env).toEqual({ LEASEBOARD_READ_TIMEOUT: '5s', PORT: '8080' });
    expect(resolveConfig({ env }).settings).toEqual(resolved.settings);
  });
});

describe('the schema', () => {
  it.each(Object.keys(SETTINGS) as SettingKey[])('%s: described, its file key from its variable, its default within its own parser', (key) => {
    const spec = SETTINGS[key];
    expect(spec.description.length).toBeGreaterThan(10);
    expect(spec.key).toBe(spec.env.replace(/^LEASEBOARD_/, '').toLowerCase());
    if (spec.default !== null && spec.default !== '') expect(spec.parse(showValue(key, spec.default))).toEqual(spec.default);
  });
});
