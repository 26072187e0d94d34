/**
 * Golden alert cases: every case of the repo copy (the shared cases plus our
 * own) through real evaluator rounds, the file format's validation, and the
 * runner's output for alert files.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { alertGoldenLine, modeInForce, parseAlertGoldenFile, runAlertGoldenCase, type AlertGoldenCase } from './golden';

const repoPath = path.join(__dirname, 'golden', 'alerts-cases.json');
// The shared set, vendored so that a fresh clone checks it too; the folder beside the repo, when there, is its source.
const vendoredSharedPath = path.join(__dirname, 'golden', 'shared', 'alerts-cases.json');
const sharedPath = path.resolve(__dirname, '..', '..', '..', 'shared', 'golden', 'alerts-cases.json');
const json = JSON.parse(readFileSync(repoPath, 'utf8')) as { format: string; cases: Record<string, unknown>[] };

function cases(value: unknown): AlertGoldenCase[] {
  const parsed = parseAlertGoldenFile(value);
  if (parsed.kind !== 'ok') throw new Error(parsed.problems.join('; '));
  return parsed.cases;
}

describe('lib/alerts/golden/alerts-cases.json', () => {
  const all = cases(json);
  it('holds the 14 shared cases and 14 of our own (mode changes, keepFiringFor boundaries, unknown spans)', () => {
    expect(all).toHaveLength(28);
    expect(new Set(all.map((c) => c.name)).size).toBe(28);
  });
  it('holds every shared case unchanged (the vendored shared set: 14 cases)', () => {
    const shared = JSON.parse(readFileSync(vendoredSharedPath, 'utf8')) as { cases: unknown[] };
    expect(shared.cases).toHaveLength(14);
    expect(json.cases).toEqual(expect.arrayContaining(shared.cases));
  });
  it('the vendored shared set is the shared folder’s file, when that folder is beside the repository', (ctx) => {
    if (!existsSync(sharedPath)) ctx.skip(`no ${path.relative(path.resolve(__dirname, '..', '..'), sharedPath)} beside this clone to compare with`);
    expect(JSON.parse(readFileSync(vendoredSharedPath, 'utf8'))).toEqual(JSON.parse(readFileSync(sharedPath, 'utf8')));
  });
  it.each(all.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    expect(runAlertGoldenCase(c)).toEqual({ kind: 'pass', name: c.name });
  });
});

describe('alert golden mapping', () => {
  const first = json.cases[0]!;

  it('the mode in force is the latest entry at or before the evaluation; none is shadow', () => {
    const modes = [
      { at: '2026-03-01T12:00:10.000Z', mode: 'on' as const },
      { at: '2026-03-01T12:00:20.000Z', mode: 'off' as const },
    ];
    expect(modeInForce(modes, '2026-03-01T12:00:00.000Z')).toBe('shadow');
    expect(modeInForce(modes, '2026-03-01T12:00:10.000Z')).toBe('on');
    expect(modeInForce(modes, '2026-03-01T12:00:19.999Z')).toBe('on');
    expect(modeInForce(modes, '2026-03-01T12:00:20.000Z')).toBe('off');
    expect(modeInForce([...modes].reverse(), '2026-03-01T12:00:25.000Z')).toBe('off');
  });

  it('a wrong expectation is reported per evaluation, with expected and got', () => {
    const [c] = cases({ ...json, cases: [{ ...first, rule: { alertname: 'SchedulerStalled', forMs: 0, keepFiringForMs: 0 } }] });
    const line = alertGoldenLine(runAlertGoldenCase(c!));
    expect(line).toBe(
      'FAIL stalled: pending at first stalled evaluation, firing once for has passed: ' +
        'at 2026-03-01T12:00:10.000Z expected state=pending, delivered=false got state=firing, delivered=true; ' +
        'at 2026-03-01T12:00:40.000Z expected state=pending, delivered=false got state=firing, delivered=true',
    );
  });

  it.each([
    { given: 'another format', value: { ...json, format: 'leaseboard-alert-golden/2' }, problem: 'format' },
    {
      given: 'a rule the format cannot express',
      value: { ...json, cases: [{ ...first, rule: { alertname: 'StaleWritesRejected', forMs: 0, keepFiringForMs: 0 } }] },
      problem: 'cases.0.rule.alertname',
    },
    {
      given: 'a negative for',
      value: { ...json, cases: [{ ...first, rule: { alertname: 'SchedulerStalled', forMs: -1, keepFiringForMs: 0 } }] },
      problem: 'cases.0.rule.forMs',
    },
    {
      given: 'a bad mode',
      value: { ...json, cases: [{ ...first, modes: [{ at: '2026-03-01T12:00:00.000Z', mode: 'loud' }] }] },
      problem: 'cases.0.modes.0.mode',
    },
    {
      given: 'evaluations going back in time',
      value: { ...json, cases: [{ ...first, evaluations: [...(first.evaluations as object[])].reverse() }] },
      problem: 'cases.0.evaluations.1.at: evaluations must go forward in time',
    },
    { given: 'no cases', value: { ...json, cases: [] }, problem: 'cases' },
  ])('rejects $given with the path of the problem', ({ value, problem }) => {
    const parsed = parseAlertGoldenFile(value);
    expect(parsed.kind).toBe('invalid');
    if (parsed.kind === 'invalid') expect(parsed.problems.join('\n')).toContain(problem);
  });
});

describe('npm run golden -- FILE (alert files)', () => {
  const root = path.resolve(__dirname, '..', '..');
  const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
  const script = path.join(root, 'scripts', 'golden.ts');
  const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'alert-golden-'));

  it('tells the format apart and prints a PASS line per case, then the summary', () => {
    const lines = execFileSync(tsx, [script, repoPath], { cwd: root, encoding: 'utf8' }).trimEnd().split('\n');
    expect(lines).toHaveLength(29);
    expect(lines.slice(0, 28).every((l) => l.startsWith('PASS '))).toBe(true);
    expect(lines[28]).toBe('28 passed, 0 failed');
  });

  it('prints FAIL and exits 1 when a case fails', () => {
    const file = path.join(tmp(), 'failing.json');
    const c = json.cases[0] as { evaluations: { expect: object }[] };
    writeFileSync(
      file,
      JSON.stringify({
        ...json,
        cases: [{ ...c, evaluations: c.evaluations.slice(0, 1).map((e) => ({ ...e, expect: { state: 'firing', delivered: true } })) }],
      }),
    );
    const run = spawnSync(tsx, [script, file], { cwd: root, encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe(
      'FAIL stalled: pending at first stalled evaluation, firing once for has passed: at 2026-03-01T12:00:00.000Z expected state=firing, delivered=true got state=inactive, delivered=false\n0 passed, 1 failed\n',
    );
  });

  it('exits 2 naming the problem for an unknown format', () => {
    const file = path.join(tmp(), 'unknown.json');
    writeFileSync(file, JSON.stringify({ format: 'something-else/1', cases: [] }));
    const run = spawnSync(tsx, [script, file], { cwd: root, encoding: 'utf8' });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('has format "something-else/1"');
  });
}, 30_000);
