import { describe, expect, it } from 'vitest';
import {
  coveringWindow,
  type MaintenanceWindow,
  occurrencesWithin,
  openOccurrence,
  openWindows,
  spanProblem,
  targetProblem,
  WEEK_MS,
  windowPhase,
} from './maintenance';

const T0 = Date.parse('2026-12-07T22:00:00Z');
const H = 3_600_000;
const DAY = 24 * H;

const window = (over: Partial<MaintenanceWindow>): MaintenanceWindow => ({
  id: 1,
  selector: 'team=payments',
  schedulers: null,
  startsAtMs: T0,
  endsAtMs: T0 + 2 * H,
  weekly: false,
  reason: 'database upgrade',
  by: 'ops',
  ...over,
});

describe('a window span', () => {
  it.each([
    { start: T0, end: T0 + H, weekly: false, problem: null },
    { start: T0, end: T0 + 30 * DAY, weekly: false, problem: null },
    { start: T0, end: T0, weekly: false, problem: 'after startsAt' },
    { start: T0, end: T0 - 1, weekly: false, problem: 'after startsAt' },
    { start: T0, end: T0 + 30 * DAY + 1, weekly: false, problem: 'at most 30 days' },
    { start: T0, end: T0 + 7 * DAY - 1, weekly: true, problem: null },
    { start: T0, end: T0 + 7 * DAY, weekly: true, problem: 'less than 7 days' },
    { start: T0, end: Number.NaN, weekly: false, problem: 'after startsAt' },
  ])('$start → $end weekly=$weekly: $problem', ({ start, end, weekly, problem }) => {
    const found = spanProblem(start, end, weekly);
    if (problem === null) expect(found).toBeNull();
    else expect(found).toContain(problem);
  });
});

describe('a window target', () => {
  it.each([
    { selector: 'team=payments', names: null, problem: null },
    { selector: null, names: ['a', 'b'], problem: null },
    { selector: 'team=payments', names: ['a'], problem: 'not both' },
    { selector: null, names: null, problem: 'not both or neither' },
    { selector: '  ', names: null, problem: 'empty' },
    { selector: 'team=pay ments', names: null, problem: 'is not a requirement' },
    { selector: null, names: [], problem: '1–100 names' },
    { selector: null, names: Array.from({ length: 101 }, (_, i) => `s${i}`), problem: '1–100 names' },
  ])('$selector $names: $problem', ({ selector, names, problem }) => {
    const found = targetProblem(selector, names);
    if (problem === null) expect(found).toBeNull();
    else expect(found).toContain(problem);
  });
});

describe('when a window is open', () => {
  it('a one-off window is open on [start, end): at its start, not at its end', () => {
    const w = window({});
    expect(openOccurrence(w, T0 - 1)).toBeNull();
    expect(openOccurrence(w, T0)).toEqual({ fromMs: T0, toMs: T0 + 2 * H });
    expect(openOccurrence(w, T0 + 2 * H - 1)).not.toBeNull();
    expect(openOccurrence(w, T0 + 2 * H)).toBeNull();
    expect(openOccurrence(w, T0 + WEEK_MS + H)).toBeNull();
  });

  it('a weekly window opens again every 7 days after its start, for as long', () => {
    const w = window({ weekly: true });
    expect(openOccurrence(w, T0 + WEEK_MS + H)).toEqual({ fromMs: T0 + WEEK_MS, toMs: T0 + WEEK_MS + 2 * H });
    expect(openOccurrence(w, T0 + WEEK_MS + 2 * H)).toBeNull();
    expect(openOccurrence(w, T0 + 3 * WEEK_MS)).toEqual({ fromMs: T0 + 3 * WEEK_MS, toMs: T0 + 3 * WEEK_MS + 2 * H });
    expect(openOccurrence(w, T0 - WEEK_MS + H)).toBeNull();
  });

  it('where a window stands: scheduled, open, ended, cancelled, and a weekly one between its openings', () => {
    expect(windowPhase(window({}), false, T0 - H)).toEqual({ state: 'scheduled', nextFromMs: T0 });
    expect(windowPhase(window({}), false, T0 + H)).toEqual({ state: 'open', toMs: T0 + 2 * H });
    expect(windowPhase(window({}), false, T0 + 3 * H)).toEqual({ state: 'ended' });
    expect(windowPhase(window({}), true, T0 + H)).toEqual({ state: 'cancelled' });
    expect(windowPhase(window({ weekly: true }), false, T0 + 3 * H)).toEqual({ state: 'scheduled', nextFromMs: T0 + WEEK_MS });
  });
});

describe('the occurrences within a range (an incident report)', () => {
  const open = (fromMs: number, toMs: number, cancelled = false) => ({ fromMs, toMs, cancelled });
  it('a one-off window: once when it overlaps the range (at its edges too), never when it does not', () => {
    const w = window({});
    expect(occurrencesWithin(w, null, T0 - DAY, T0 + DAY)).toEqual([open(T0, T0 + 2 * H)]);
    expect(occurrencesWithin(w, null, T0 + H, T0 + DAY)).toEqual([open(T0, T0 + 2 * H)]);
    expect(occurrencesWithin(w, null, T0 - DAY, T0)).toEqual([open(T0, T0 + 2 * H)]);
    expect(occurrencesWithin(w, null, T0 + 2 * H, T0 + DAY)).toEqual([]);
    expect(occurrencesWithin(w, null, T0 - DAY, T0 - 1)).toEqual([]);
  });
  it('a weekly window: each opening that overlaps, none before its first', () => {
    const w = window({ weekly: true });
    expect(occurrencesWithin(w, null, T0 - WEEK_MS, T0 + 15 * DAY)).toEqual([
      open(T0, T0 + 2 * H),
      open(T0 + WEEK_MS, T0 + WEEK_MS + 2 * H),
      open(T0 + 2 * WEEK_MS, T0 + 2 * WEEK_MS + 2 * H),
    ]);
    expect(occurrencesWithin(w, null, T0 + WEEK_MS + H, T0 + WEEK_MS + 3 * H)).toEqual([open(T0 + WEEK_MS, T0 + WEEK_MS + 2 * H)]);
    expect(occurrencesWithin(w, null, T0 + 3 * H, T0 + WEEK_MS - 1)).toEqual([]);
  });
  it('cancelled: the opening in progress is cut at the cancellation, later ones never happen', () => {
    const w = window({ weekly: true });
    expect(occurrencesWithin(w, T0 + WEEK_MS + H, T0, T0 + 3 * WEEK_MS)).toEqual([open(T0, T0 + 2 * H), open(T0 + WEEK_MS, T0 + WEEK_MS + H, true)]);
    expect(occurrencesWithin(window({}), T0 - H, T0 - DAY, T0 + DAY)).toEqual([]);
    expect(occurrencesWithin(window({}), T0 + 3 * H, T0 - DAY, T0 + DAY)).toEqual([open(T0, T0 + 2 * H)]);
  });
});

describe('whom an open window covers', () => {
  const byTeam = window({ id: 1, selector: 'team=payments,env!=dev' });
  const byName = window({ id: 2, selector: null, schedulers: ['ledger-close'], endsAtMs: T0 + 3 * H });
  const later = window({ id: 3, selector: 'team', startsAtMs: T0 + 5 * H, endsAtMs: T0 + 6 * H });

  it('by selector over the labels, or by name; closed windows cover nothing', () => {
    const open = openWindows([byTeam, byName, later], T0 + H);
    expect(open.map((o) => o.window.id)).toEqual([1, 2]);
    expect(coveringWindow(open, 'invoices', { team: 'payments', env: 'prod' })?.window.id).toBe(1);
    expect(coveringWindow(open, 'invoices', { team: 'payments', env: 'dev' })).toBeNull();
    expect(coveringWindow(open, 'invoices', { team: 'search' })).toBeNull();
    expect(coveringWindow(open, 'ledger-close', {})?.window.id).toBe(2);
  });

  it('of several covering windows, the one that closes last', () => {
    const open = openWindows([byTeam, byName], T0 + H);
    expect(coveringWindow(open, 'ledger-close', { team: 'payments' })?.window.id).toBe(2);
  });

  it('after its end it covers nothing: the next read at a later now resumes everything', () => {
    expect(coveringWindow(openWindows([byTeam], T0 + 2 * H), 'invoices', { team: 'payments' })).toBeNull();
  });
});
