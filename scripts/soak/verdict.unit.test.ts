import { describe, expect, it } from 'vitest';
import type { SoakSample } from './sample';
import { soakVerdict } from './verdict';

const MB = 1024 * 1024;

/** Samples every 3 s of one table (and one process) whose bytes follow `bytes(t)` and rows `rows(t)`. */
function run(
  seconds: number,
  bytes: (s: number) => number,
  rss: (s: number) => number = () => 100 * MB,
  rows: (s: number) => number = () => 5_000,
): SoakSample[] {
  const samples: SoakSample[] = [];
  for (let s = 0; s <= seconds; s += 3) {
    samples.push({ atMs: s * 1000, tables: { progress_reports: { rows: rows(s), bytes: bytes(s) } }, rss: { 'pruner P': rss(s) }, listMs: 5, listOk: true });
  }
  return samples;
}

/** A partition sawtooth: 4 MB of history, a 15 s partition (+1 MB) dropped whole every 15 s. */
const sawtooth = (s: number) => 4 * MB + ((s % 15) / 15) * MB;

describe('soakVerdict', () => {
  it('given a bounded sawtooth judged from any offset, when judged over whole partition widths, then it is flat', () => {
    for (let offset = 0; offset < 15; offset += 1) {
      const verdict = soakVerdict(
        run(180, (s) => sawtooth(s + offset)),
        45_000,
        15_000,
      );
      expect(verdict.kind, `offset ${offset}`).toBe('flat');
    }
  });

  it('given a table whose rows grow 20 % a minute (its retention stopped) while its file has room, then its rows are named', () => {
    const verdict = soakVerdict(
      run(180, sawtooth, undefined, (s) => 5_000 * (1 + s / 300)),
      45_000,
      15_000,
    );
    expect(verdict.kind === 'grew' && verdict.grew.map((j) => j.subject)).toEqual(['progress_reports rows']);
  });

  it('given the same sawtooth on a file growing 3 MB a minute with flat rows (bloat), then it names the table and the total', () => {
    const verdict = soakVerdict(
      run(180, (s) => sawtooth(s) + (s / 20) * MB),
      45_000,
      15_000,
    );
    // Its last third stands 2.9 MB (+45 %) above the first third's peak: past the table's 1 MB and the total's 2 MB.
    expect(verdict.kind === 'grew' && verdict.grew.map((j) => j.subject)).toEqual(['progress_reports', 'all tables']);
  });

  it('given a file that steps up by 25 % late in the first third and stays there (a high-water mark), then it is flat', () => {
    // Judged 45–180 s: thirds of 45 s; the step at 84 s is inside the first third (45–90 s).
    const verdict = soakVerdict(
      run(180, (s) => 2 * MB + (s >= 84 ? MB / 2 : 0)),
      45_000,
      15_000,
    );
    expect(verdict.kind).toBe('flat');
  });

  it('given a step of 1.5 MB after the first third, then it names that table', () => {
    const verdict = soakVerdict(
      run(180, (s) => 2 * MB + (s >= 96 ? 1.5 * MB : 0)),
      45_000,
      15_000,
    );
    expect(verdict.kind === 'grew' && verdict.grew.map((j) => j.subject)).toEqual(['progress_reports']);
  });

  it('given a process whose RSS grows 20 MB a minute, then its RSS is named', () => {
    const verdict = soakVerdict(
      run(180, sawtooth, (s) => 100 * MB + (s / 60) * 20 * MB),
      45_000,
      15_000,
    );
    expect(verdict.kind === 'grew' && verdict.grew.map((j) => j.subject)).toEqual(['pruner P RSS']);
  });

  it('given a process whose RSS swings by 10 MB between collections, then it is not growth', () => {
    const verdict = soakVerdict(
      run(180, sawtooth, (s) => 90 * MB + (s > 120 ? 10 * MB : 0)),
      45_000,
      15_000,
    );
    expect(verdict.kind).toBe('flat');
  });

  it('given a 1.5 MB table whose rows stay flat and whose file steps up 328 kB (+21 %) after the first third, then it is not growth', () => {
    // plan_items in a loaded CI run: 1,560 → 1,888 kB at 111 s, in one contended extension.
    const verdict = soakVerdict(
      run(180, (s) => 1_560 * 1024 + (s >= 111 ? 328 * 1024 : 0)),
      45_000,
      15_000,
    );
    expect(verdict.kind).toBe('flat');
  });

  it('given a table of a few rows that gains a few dozen, then it is not growth', () => {
    const verdict = soakVerdict(
      run(
        180,
        () => 64 * 1024,
        undefined,
        (s) => (s > 120 ? 60 : 10),
      ),
      45_000,
      15_000,
    );
    expect(verdict.kind).toBe('flat');
  });

  it('given a small table growing by a few pages (under 256 kB), then it is not growth', () => {
    const verdict = soakVerdict(
      run(180, (s) => 16 * 1024 + (s > 120 ? 64 * 1024 : 0)),
      45_000,
      15_000,
    );
    expect(verdict.kind).toBe('flat');
  });

  it('given too few samples after the horizon, then it cannot judge (never a pass)', () => {
    expect(soakVerdict(run(60, sawtooth), 45_000, 15_000).kind).toBe('too_short');
    expect(soakVerdict(run(90, sawtooth), 45_000, 30_000)).toMatchObject({ kind: 'too_short' });
  });
});
