// The Prometheus rule file against the real promtool (Debian `prometheus`,
// which CI installs): `promtool check rules` accepts what `npm run alerts --
// rules` writes, and `promtool test rules` passes the tests derived from the
// golden alert cases (repo copy, and the shared copy when present) — and
// fails when a rule loses what a case pins down.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAlertConfig } from '../config';
import { AMTOOL, PROMTOOL, requireBinary } from '../local/binaries';
import { toYaml } from '../yaml';
import { promRule } from './rules';

const root = path.resolve(__dirname, '..', '..', '..');
const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
const script = path.join(root, 'scripts', 'alerts.ts');
const sharedCases = path.resolve(root, '../shared/golden/alerts-cases.json');
const dirs: string[] = [];
const tmp = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'leaseboard-promtool-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function run(bin: string, args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(bin, args, { cwd: root, encoding: 'utf8', timeout: 120_000, env: { ...process.env, ...env } });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

describe('npm run alerts -- rules', () => {
  it('writes a rule file promtool accepts, with every rule, its timings from the environment and runbook links', () => {
    const file = path.join(tmp(), 'leaseboard.rules.yml');
    const env = { LEASEBOARD_EXTERNAL_URL: 'https://ops.example/leaseboard', LEASEBOARD_ALERT_SCHEDULER_STALLED_FOR: '3m' };
    const written = run(tsx, [script, 'rules', '--out', file], env);
    expect(written).toEqual({ status: 0, out: `alerts: wrote ${file}\n` });
    const check = run(requireBinary(PROMTOOL), ['check', 'rules', file]);
    expect(check.out).toContain('SUCCESS: 7 rules found');
    expect(check.status).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('for: "3m"');
    expect(text).toContain('runbook_url: "https://ops.example/leaseboard/runbooks/SchedulerStalled"');
  });

  it('refuses a bad timing, naming the variable, with exit 2', () => {
    const r = run(tsx, [script, 'rules'], { LEASEBOARD_ALERT_SCHEDULER_UNKNOWN_FOR: 'soon' });
    expect(r.status).toBe(2);
    expect(r.out).toContain('LEASEBOARD_ALERT_SCHEDULER_UNKNOWN_FOR expected a duration');
  });

  it('the committed files pass promtool check rules and amtool check-config', () => {
    expect(run(requireBinary(PROMTOOL), ['check', 'rules', 'docs/prometheus/leaseboard.rules.yml']).status).toBe(0);
    const am = run(requireBinary(AMTOOL), ['check-config', 'docs/alertmanager/alertmanager.yml']);
    expect(am.out).toContain('1 inhibit rules');
    expect(am.status).toBe(0);
  });
});

describe('promtool test rules, derived from the golden alert cases', () => {
  const dir = tmp();
  const files = ['lib/alerts/golden/alerts-cases.json', ...(existsSync(sharedCases) ? [sharedCases] : [])];
  let derivation: ReturnType<typeof run>;
  beforeAll(() => {
    derivation = run(tsx, [script, 'rule-tests', '--out', dir, ...files]);
  });
  const testFiles = () =>
    readdirSync(dir)
      .filter((f) => f.endsWith('.test.yml'))
      .map((f) => path.join(dir, f));

  it('derives the expressible cases and names why the others cannot be', () => {
    expect(derivation.status).toBe(0);
    expect(derivation.out).toContain('alerts-cases.json: 21 derived, 7 not expressible in PromQL');
    expect(derivation.out).toMatch(/^SKIP off: not evaluated at all, even while stalled: mode off forgets the state/m);
  });

  it('passes on the real rule engine', () => {
    const r = run(requireBinary(PROMTOOL), ['test', 'rules', ...testFiles()]);
    expect(r.out).not.toContain('FAILED');
    expect(r.status).toBe(0);
    expect(r.out.match(/SUCCESS/g)?.length).toBe(testFiles().length);
  });

  it('fails when the rule no longer holds a firing alert through unknown evidence (the tests check something)', () => {
    const stem = readdirSync(dir).find((f) => f.endsWith('case-07.rules.yml'))!;
    expect(readFileSync(path.join(dir, stem), 'utf8').split('\n')[0]).toContain('unknown evidence does not resolve a firing alert');
    const config = parseAlertConfig({ LEASEBOARD_ALERT_SCHEDULER_STALLED_FOR: '0s', LEASEBOARD_ALERT_SCHEDULER_STALLED_KEEP_FIRING_FOR: '0s' });
    const withoutHold = {
      ...(promRule('SchedulerStalled', config) as Record<string, unknown>),
      expr: 'max by (scheduler) (leaseboard_scheduler_health{health="stalled"} == 1)',
    };
    writeFileSync(path.join(dir, stem), toYaml({ groups: [{ name: 'leaseboard', rules: [withoutHold as never] }] }));
    const r = run(requireBinary(PROMTOOL), ['test', 'rules', path.join(dir, stem.replace('.rules.yml', '.test.yml'))]);
    expect(r.status).not.toBe(0);
    expect(r.out).toContain('got:[]');
  });
});
