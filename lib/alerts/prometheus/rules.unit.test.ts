/**
 * The generated files: YAML as written, the committed rule and Alertmanager
 * files in step with their generators, and which golden cases PromQL can
 * express (decided from the case, with a reason for each that it cannot).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { alertmanagerConfig, SHIPPED_HEADER, SHIPPED_OPTIONS } from '../alertmanager-config';
import { parseAlertConfig } from '../config';
import { parseAlertGoldenFile, type AlertGoldenCase } from '../golden';
import { toYaml } from '../yaml';
import { promDuration } from './duration';
import { deriveRuleTests, whyNotExpressible } from './rule-tests';
import { promExpr, promRuleFile, RULE_FILE_HEADER } from './rules';

const root = path.resolve(__dirname, '..', '..', '..');

describe('toYaml', () => {
  it('writes block mappings and sequences, quoted strings and literal blocks', () => {
    const text = toYaml({ a: 'on', b: 1.5, c: true, d: null, e: [], f: {}, g: ['x', { h: 'y\nz', i: [1] }], 'odd key': undefined, 'k-2': 'v' }, 'top\n\nnote');
    expect(text).toBe(
      [
        '# top',
        '#',
        '# note',
        'a: "on"',
        'b: 1.5',
        'c: true',
        'd: null',
        'e: []',
        'f: {}',
        'g:',
        '  - "x"',
        '  - h: |-',
        '      y',
        '      z',
        '    i:',
        '      - 1',
        'k-2: "v"',
        '',
      ].join('\n'),
    );
  });
  it('parses back to the same value (undefined members left out)', () => {
    const value = { expr: 'a\n  or b\n', list: ['no', '1e3', 'yes: really'], n: { m: [{ deep: 'x' }] } };
    expect(parse(toYaml({ ...value, gone: undefined }, 'note'))).toEqual(value);
  });
  it('refuses non-finite numbers', () => {
    expect(() => toYaml({ x: Number.NaN })).toThrow(/cannot write NaN/);
  });
  it('quotes a multi-line string it cannot keep exactly in a literal block', () => {
    expect(toYaml({ s: 'trailing \nblank' })).toBe('s: "trailing \\nblank"\n');
  });
});

describe('promDuration', () => {
  it.each([
    [0, '0s'],
    [1_500, '1500ms'],
    [90_000, '90s'],
    [120_000, '2m'],
    [3_600_000, '1h'],
  ])('%i ms → %s', (ms, text) => {
    expect(promDuration(ms)).toBe(text);
  });
});

describe('committed files are what the generators write (regenerate: npm run alerts -- …)', () => {
  it('docs/prometheus/leaseboard.rules.yml', () => {
    const committed = readFileSync(path.join(root, 'docs/prometheus/leaseboard.rules.yml'), 'utf8');
    expect(committed).toBe(toYaml(promRuleFile(parseAlertConfig({})), RULE_FILE_HEADER));
  });
  it('docs/alertmanager/alertmanager.yml', () => {
    const committed = readFileSync(path.join(root, 'docs/alertmanager/alertmanager.yml'), 'utf8');
    expect(committed).toBe(toYaml(alertmanagerConfig(SHIPPED_OPTIONS), SHIPPED_HEADER));
  });
});

describe('rule expressions', () => {
  it('use the rejection window in seconds', () => {
    expect(promExpr('StaleWritesRejected', { rejectionWindowMs: 90_000 })).toBe(
      'max by (scheduler) (leaseboard_scheduler_last_stale_write_rejection_age_seconds <= 90)',
    );
  });
  it('hold a firing alert through unknown evidence, for every rule but SchedulerUnknown', () => {
    expect(promExpr('SchedulerStalled', { rejectionWindowMs: 0 })).toContain('ALERTS{alertname="SchedulerStalled", alertstate="firing"}');
    expect(promExpr('SchedulerUnknown', { rejectionWindowMs: 0 })).not.toContain('ALERTS');
  });
});

describe('which golden cases PromQL can express', () => {
  const doc = JSON.parse(readFileSync(path.join(root, 'lib/alerts/golden/alerts-cases.json'), 'utf8')) as unknown;
  const parsed = parseAlertGoldenFile(doc);
  if (parsed.kind !== 'ok') throw new Error('golden file invalid');
  const byName = new Map(parsed.cases.map((c) => [c.name, c]));
  const named = (name: string) => byName.get(name)!;

  it.each([
    ['off: not evaluated at all, even while stalled', 'mode_off'],
    ['stalled: unknown evidence neither fires nor resolves it (pending holds)', 'unknown_holds_pending'],
    ['keepFiringFor: unknown evidence while held neither resolves nor restarts the count', 'unknown_holds_keep_firing'],
    ['stalled: unknown evidence does not resolve a firing alert', null],
    ['shadow: the state machine runs, nothing is delivered', null],
    ['stalled: keepFiringFor holds firing through a brief recovery (counted from the first healthy evaluation)', null],
  ])('%s → %s', (name, reason) => {
    expect(whyNotExpressible(named(name))).toBe(reason);
  });

  it('a case whose answer changes when Prometheus also evaluates between its instants is skipped as cadence-dependent', () => {
    const ev = (s: number, health: 'stalled' | 'progressing', state: 'pending' | 'inactive') => ({
      at: `2026-03-01T12:0${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}.000Z`,
      health,
      atRisk: false,
      expect: { state, delivered: false },
    });
    const c: AlertGoldenCase = {
      name: 'sparse evaluations across for',
      rule: { alertname: 'SchedulerStalled', forMs: 60_000, keepFiringForMs: 30_000 },
      modes: [],
      evaluations: [ev(0, 'stalled', 'pending'), ev(30, 'stalled', 'pending'), ev(70, 'progressing', 'inactive')],
    };
    expect(whyNotExpressible(c)).toBe('cadence');
    expect(deriveRuleTests([c]).skipped).toEqual([{ name: c.name, reason: 'cadence', text: expect.stringContaining('every 10s') }]);
  });

  it('derives 21 of the 28 repo cases and names a reason for each of the other 7', () => {
    const { derived, skipped } = deriveRuleTests(parsed.cases);
    expect(derived).toHaveLength(21);
    expect(skipped.map((s) => s.reason).sort()).toEqual([
      'mode_off',
      'mode_off',
      'mode_off',
      'unknown_holds_keep_firing',
      'unknown_holds_pending',
      'unknown_holds_pending',
      'unknown_holds_pending',
    ]);
  });
});
