import { describe, expect, it } from 'vitest';
import { HEALTH_SEVERITY } from './health';
import { buildStrip, stripFrame, unobservedCover, worstInWindow, type CellChanges, type StripInput } from './strip';

const MIN = 60_000;
// 10:30:20 UTC: the 1 h window is the 60 minutes 09:31 … 10:30 (the last cut at now).
const NOW = Date.parse('2026-12-02T10:30:20.000Z');
const frame = stripFrame('1h', NOW);
const minute = (iso: string) => Date.parse(`2026-12-02T${iso}:00.000Z`);
const allObserved = () => new Set(Array.from({ length: 61 }, (_, i) => frame.fromMs + i * MIN));
const cellOf = (ms: number) => Math.floor((ms - frame.fromMs) / frame.cellMs);
const change = (atIso: string, worst: CellChanges['worst'], last = worst): CellChanges => {
  const at = Date.parse(`2026-12-02T${atIso}Z`);
  return { cell: cellOf(at), worst, worstAtMs: at, last };
};

function strip(over: Partial<StripInput>) {
  return buildStrip({
    frame,
    bornMs: minute('08:00'),
    horizonMs: 0,
    carried: { health: 'progressing', atMs: minute('08:00') },
    changes: [],
    observedMinutes: allObserved(),
    ...over,
  });
}
const view = (s: ReturnType<typeof buildStrip>) =>
  s.segments.map((x) => [new Date(x.fromMs).toISOString().slice(11, 19), new Date(x.toMs).toISOString().slice(11, 19), x.health]);

describe('strip frame', () => {
  it('aligns cells to the wall clock and ends at now', () => {
    expect(new Date(frame.fromMs).toISOString()).toBe('2026-12-02T09:31:00.000Z');
    expect(frame.cells).toBe(60);
    const day = stripFrame('24h', NOW);
    expect(new Date(day.fromMs).toISOString()).toBe('2026-12-01T10:45:00.000Z');
    expect(stripFrame('7d', NOW).fromMs % 3_600_000).toBe(0);
  });
});

describe('buildStrip', () => {
  it('given a steady scheduler, then one progressing segment over the window', () => {
    const s = strip({});
    expect(view(s)).toEqual([['09:31:00', '10:30:20', 'progressing']]);
    expect(s.worst).toBe('progressing');
  });

  it('given a freeze of 40 s, then its minute is stalled and the segment opens when the stall was recorded', () => {
    // Recorded stalled at 10:00:10 and progressing again at 10:00:50: the minute's worst is the stall.
    const s = strip({ changes: [{ ...change('10:00:10', 'stalled'), last: 'progressing' }] });
    expect(view(s)).toEqual([
      ['09:31:00', '10:00:00', 'progressing'],
      ['10:00:00', '10:01:00', 'stalled'],
      ['10:01:00', '10:30:20', 'progressing'],
    ]);
    expect(new Date(s.segments[1]!.atMs).toISOString()).toBe('2026-12-02T10:00:10.000Z');
    expect(s.worst).toBe('stalled');
  });

  it('given a takeover gap across two minutes, then no leader over both, and what followed carries on', () => {
    const s = strip({
      changes: [change('10:10:50', 'no_leader'), { ...change('10:11:15', 'unknown'), worst: 'no_leader', last: 'unknown' }, change('10:12:05', 'progressing')],
    });
    expect(view(s)).toEqual([
      ['09:31:00', '10:10:00', 'progressing'],
      ['10:10:00', '10:12:00', 'no_leader'],
      ['10:12:00', '10:13:00', 'unknown'],
      ['10:13:00', '10:30:20', 'progressing'],
    ]);
  });

  it('given a scheduler registered 10:20:30, then nothing before it and the first cell starts there', () => {
    const born = Date.parse('2026-12-02T10:20:30Z');
    const s = strip({ bornMs: born, carried: null, changes: [change('10:20:33', 'unknown', 'progressing')] });
    expect(s.sinceMs).toBe(born);
    expect(view(s)).toEqual([
      ['10:20:30', '10:21:00', 'unknown'],
      ['10:21:00', '10:30:20', 'progressing'],
    ]);
    expect(s.segments.every((x) => x.fromMs >= born)).toBe(true);
  });

  it('given the first record a round after registration, then its cell shows that record, not unknown for the lag', () => {
    const born = Date.parse('2026-12-02T10:29:58Z');
    const s = strip({ bornMs: born, carried: null, changes: [change('10:29:59', 'progressing')] });
    expect(view(s)).toEqual([['10:29:58', '10:30:20', 'progressing']]);
    expect(s.segments.every((x) => !x.notObserved)).toBe(true);
  });

  it('given no record yet after registration, then unknown, flagged not observed', () => {
    const born = Date.parse('2026-12-02T10:29:30Z');
    const s = strip({ bornMs: born, carried: null, changes: [] });
    expect(view(s)).toEqual([['10:29:30', '10:30:20', 'unknown']]);
    expect(s.segments[0]!.notObserved).toBe(true);
  });

  it('given minutes nobody observed, then those cells are unknown and flagged, never the carried health', () => {
    const observed = allObserved();
    observed.delete(minute('10:05'));
    observed.delete(minute('10:06'));
    const s = strip({ observedMinutes: observed });
    expect(view(s)).toEqual([
      ['09:31:00', '10:05:00', 'progressing'],
      ['10:05:00', '10:07:00', 'unknown'],
      ['10:07:00', '10:30:20', 'progressing'],
    ]);
    expect(s.segments[1]!.notObserved).toBe(true);
  });

  it('given a stall in a minute nobody fully observed, then stalled still wins (worst first)', () => {
    const observed = allObserved();
    observed.delete(minute('10:05'));
    const s = strip({ observedMinutes: observed, changes: [change('10:05:10', 'stalled')] });
    expect(view(s).slice(1)).toEqual([
      ['10:05:00', '10:06:00', 'stalled'],
      ['10:06:00', '10:30:20', 'stalled'],
    ]);
    expect(s.segments.slice(1).map((x) => x.notObserved)).toEqual([true, false]);
  });

  it('given a horizon inside the window, then nothing before it', () => {
    const s = strip({ horizonMs: minute('10:00') });
    expect(view(s)).toEqual([['10:00:00', '10:30:20', 'progressing']]);
  });

  it('given a scheduler born after now or never recorded, then nothing at all', () => {
    expect(strip({ bornMs: NOW + 1 }).segments).toEqual([]);
    expect(buildStrip({ frame, bornMs: null, horizonMs: 0, carried: null, changes: [], observedMinutes: allObserved() })).toEqual({
      sinceMs: null,
      segments: [],
      worst: null,
    });
  });
});

describe('unobservedCover', () => {
  it('given random gaps, then every span within and beyond the frame answers as a walk over its minutes, and the strips drawn are the same', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let run = 0; run < 200; run++) {
      const observed = allObserved();
      for (let m = frame.fromMs; m < NOW; m += MIN) if (random() < 0.05 * (run % 3)) observed.delete(m);
      const cover = unobservedCover(frame, observed);
      for (let k = 0; k < 50; k++) {
        const fromMs = frame.fromMs - 5 * MIN + Math.floor(random() * 75 * MIN);
        const toMs = fromMs + Math.floor(random() * 20 * MIN) - MIN;
        let walked = false;
        for (let m = Math.floor(fromMs / MIN) * MIN; m < toMs; m += MIN) if (!observed.has(m)) walked = true;
        expect(cover(fromMs, toMs), `run ${run}: ${fromMs}..${toMs}`).toBe(walked);
      }
      const input = { frame, bornMs: frame.fromMs + Math.floor(random() * 30 * MIN), horizonMs: 0, carried: null, changes: [], observedMinutes: observed };
      expect(buildStrip({ ...input, unobserved: cover })).toEqual(buildStrip(input));
    }
  });
});

describe('worstInWindow', () => {
  it("given random rollups, then it equals the drawn strip's worst (ranking without building strips)", () => {
    let seed = 42;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const pick = () => HEALTH_SEVERITY[Math.floor(random() * HEALTH_SEVERITY.length)]!;
    for (let run = 0; run < 500; run++) {
      const bornMs = random() < 0.5 ? frame.fromMs - MIN : frame.fromMs + Math.floor(random() * 70 * MIN);
      const carried = bornMs < frame.fromMs && random() < 0.8 ? { health: pick(), atMs: bornMs } : null;
      const changes: CellChanges[] = [];
      for (let cell = 0; cell < frame.cells; cell++) {
        const cellStart = frame.fromMs + cell * frame.cellMs;
        if (cellStart + frame.cellMs <= bornMs || random() > 0.1) continue;
        const worstAtMs = Math.max(bornMs, cellStart) + Math.floor(random() * 1_000);
        if (worstAtMs > NOW) continue;
        const worst = pick();
        const last = HEALTH_SEVERITY[HEALTH_SEVERITY.indexOf(worst) + Math.floor(random() * (HEALTH_SEVERITY.length - HEALTH_SEVERITY.indexOf(worst)))]!; // never worse than the worst
        changes.push({ cell, worst, worstAtMs, last });
      }
      const observed = allObserved();
      if (random() < 0.3) observed.delete(frame.fromMs + Math.floor(random() * 60) * MIN);
      const horizonMs = 0; // a retention shorter than the window: see worstInWindow's non-guarantee
      let lastUnobserved: number | null = null;
      for (let m = frame.fromMs; m < NOW; m += MIN) if (!observed.has(m)) lastUnobserved = m;
      const inside = changes.length === 0 ? null : { worst: worstOf(changes.map((c) => c.worst)), firstAtMs: changes[0]!.worstAtMs };
      const drawn = buildStrip({ frame, bornMs, horizonMs, carried, changes, observedMinutes: observed }).worst;
      expect(worstInWindow({ frame, bornMs, horizonMs, carried, inside, lastUnobservedMinuteMs: lastUnobserved }), `run ${run}`).toBe(drawn);
    }
  });
});

function worstOf(healths: readonly (typeof HEALTH_SEVERITY)[number][]) {
  return [...healths].sort((a, b) => HEALTH_SEVERITY.indexOf(a) - HEALTH_SEVERITY.indexOf(b))[0]!;
}
