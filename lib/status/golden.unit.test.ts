/**
 * Golden cases: every case of golden/cases.json through the real projection,
 * the file format's validation, and the runner's output and exit codes.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { goldenLine, parseGoldenFile, runGoldenCase, type GoldenCase } from './golden';

const casesPath = path.join(__dirname, 'golden', 'cases.json');
const json: unknown = JSON.parse(readFileSync(casesPath, 'utf8'));

function cases(value: unknown): GoldenCase[] {
  const parsed = parseGoldenFile(value);
  if (parsed.kind !== 'ok') throw new Error(parsed.problems.join('; '));
  return parsed.cases;
}

describe('golden/cases.json', () => {
  const all = cases(json);
  it('holds the 20 shared cases', () => {
    expect(all).toHaveLength(20);
  });
  it.each(all.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    expect(runGoldenCase(c)).toEqual({ kind: 'pass', name: c.name });
  });
});

describe('golden file mapping', () => {
  const base = JSON.parse(readFileSync(casesPath, 'utf8')) as { thresholds: object; cases: Record<string, unknown>[] };
  const first = base.cases[0];

  it("a case's thresholds replace the file's; the scheduler is named from the lease", () => {
    const own = { stallAfterMs: 1_000, overdueAfterMs: 0, atRiskFraction: 1 };
    const [withOwn, plain] = cases({ ...base, cases: [{ ...first, thresholds: own }, first] });
    expect(withOwn?.thresholds).toEqual(own);
    expect(plain?.thresholds).toEqual(base.thresholds);
    expect(plain?.facts.name).toBe('retention-planner');
  });

  it('a wrong expectation is reported field by field', () => {
    const [c] = cases({ ...base, cases: [{ ...first, expect: { health: 'stalled', gap: false } }] });
    if (c === undefined) throw new Error('no case');
    const result = runGoldenCase(c);
    expect(goldenLine(result)).toBe('FAIL active leader making progress: expected health=stalled got health=progressing');
  });

  it.each([
    { given: 'another version', value: { ...base, version: 2 }, problem: 'version' },
    { given: 'a bad time', value: { ...base, cases: [{ ...first, now: 'noon' }] }, problem: 'cases.0.now' },
    { given: 'an empty expect', value: { ...base, cases: [{ ...first, expect: {} }] }, problem: 'cases.0.expect' },
    { given: 'no cases', value: { ...base, cases: [] }, problem: 'cases' },
  ])('rejects $given with the path of the problem', ({ value, problem }) => {
    const parsed = parseGoldenFile(value);
    expect(parsed.kind).toBe('invalid');
    if (parsed.kind === 'invalid') expect(parsed.problems.join('\n')).toContain(problem);
  });
});

describe('npm run golden -- FILE', () => {
  const root = path.resolve(__dirname, '..', '..');
  const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
  const script = path.join(root, 'scripts', 'golden.ts');

  it('prints a PASS line per case, then the summary, and exits 0', () => {
    const out = execFileSync(tsx, [script, casesPath], { cwd: root, encoding: 'utf8' });
    const lines = out.trimEnd().split('\n');
    expect(lines).toHaveLength(21);
    expect(lines.slice(0, 20).every((l) => l.startsWith('PASS '))).toBe(true);
    expect(lines[20]).toBe('20 passed, 0 failed');
  });

  it('prints FAIL with expected and got, and exits 1, when a case fails', () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'golden-')), 'failing.json');
    const doc = JSON.parse(readFileSync(casesPath, 'utf8')) as { cases: { expect: object }[] };
    writeFileSync(file, JSON.stringify({ ...doc, cases: doc.cases.slice(0, 1).map((c) => ({ ...c, expect: { work: 'idle' } })) }));
    const run = spawnSync(tsx, [script, file], { cwd: root, encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('FAIL active leader making progress: expected work=idle got work=progressing\n0 passed, 1 failed\n');
  });

  it('exits 2 with a clear message on a missing file', () => {
    const run = spawnSync(tsx, [script, path.join(root, 'no-such-golden.json')], { cwd: root, encoding: 'utf8' });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('cannot read');
  });
}, 30_000);
