/**
 * The state machine on fake time, as given/when/then tables: Prometheus'
 * `for` and `keepFiringFor`, unknown evidence held, resolved retention.
 */
import { describe, expect, it } from 'vitest';
import { INACTIVE, advance, evaluate, phase } from './machine';
import { at, config, evidence, MIN, SEC, timing } from './test-fixtures';
import type { AlertState, Condition } from './types';

/** Runs `steps` from `start`; returns the state after each. */
function run(t: ReturnType<typeof timing>, steps: [ms: number, condition: Condition][], start: AlertState = INACTIVE): AlertState[] {
  const out: AlertState[] = [];
  let state = start;
  for (const [ms, condition] of steps) {
    state = advance(t, condition, state, at(ms));
    out.push(state);
  }
  return out;
}

describe('for', () => {
  it.each([
    {
      given: 'for 60 s',
      when: 'true at 0, 59.999 s, 60 s',
      t: timing({ forMs: 60 * SEC }),
      steps: [
        [0, 'true'],
        [60 * SEC - 1, 'true'],
        [60 * SEC, 'true'],
      ],
      then: ['pending', 'pending', 'firing'],
    },
    { given: 'for 0', when: 'true at 0', t: timing({ forMs: 0 }), steps: [[0, 'true']], then: ['firing'] },
    {
      given: 'for 60 s',
      when: 'true, false before for, true again',
      t: timing(),
      steps: [
        [0, 'true'],
        [30 * SEC, 'false'],
        [50 * SEC, 'true'],
        [100 * SEC, 'true'],
        [110 * SEC, 'true'],
      ],
      then: ['pending', 'inactive', 'pending', 'pending', 'firing'],
    },
    {
      given: 'for 60 s',
      when: 'false throughout',
      t: timing(),
      steps: [
        [0, 'false'],
        [90 * SEC, 'false'],
      ],
      then: ['inactive', 'inactive'],
    },
  ] as { given: string; when: string; t: ReturnType<typeof timing>; steps: [number, Condition][]; then: string[] }[])(
    'given $given, when $when, then $then',
    (c) => {
      expect(run(c.t, c.steps).map((s) => s.kind)).toEqual(c.then);
    },
  );

  it('then activeAt is the first true evaluation and firedAt the one that met for', () => {
    const [, , fired] = run(timing(), [
      [10 * SEC, 'true'],
      [40 * SEC, 'true'],
      [70 * SEC, 'true'],
    ]);
    expect(fired).toEqual({ kind: 'firing', activeAt: at(10 * SEC), firedAt: at(70 * SEC), keepFiringSince: null });
  });
});

describe('keepFiringFor', () => {
  const t = timing({ forMs: 0, keepFiringForMs: 30 * SEC });
  it.each([
    {
      when: 'false for less than keepFiringFor',
      steps: [
        [0, 'true'],
        [10 * SEC, 'false'],
        [39 * SEC, 'false'],
      ],
      then: ['firing', 'firing', 'firing'],
    },
    {
      when: 'false for exactly keepFiringFor (counted from the first false evaluation)',
      steps: [
        [0, 'true'],
        [10 * SEC, 'false'],
        [40 * SEC, 'false'],
      ],
      then: ['firing', 'firing', 'resolved'],
    },
    {
      when: 'a true evaluation in between resets the count',
      steps: [
        [0, 'true'],
        [10 * SEC, 'false'],
        [30 * SEC, 'true'],
        [40 * SEC, 'false'],
        [69 * SEC, 'false'],
        [70 * SEC, 'false'],
      ],
      then: ['firing', 'firing', 'firing', 'firing', 'firing', 'resolved'],
    },
  ] as { when: string; steps: [number, Condition][]; then: string[] }[])('given a firing alert with keepFiringFor 30 s, when $when, then $then', (c) => {
    expect(run(t, c.steps).map((s) => s.kind)).toEqual(c.then);
  });

  it('then keepFiringSince is set on the first false evaluation and cleared by a true one', () => {
    const states = run(t, [
      [0, 'true'],
      [10 * SEC, 'false'],
      [20 * SEC, 'false'],
      [25 * SEC, 'true'],
    ]);
    expect(states.map((s) => (s.kind === 'firing' ? s.keepFiringSince : 'n/a'))).toEqual([null, at(10 * SEC), at(10 * SEC), null]);
  });

  it('given keepFiringFor 0, when false, then it resolves at once with resolvedAt = now', () => {
    const [, resolved] = run(timing({ forMs: 0 }), [
      [0, 'true'],
      [5 * SEC, 'false'],
    ]);
    expect(resolved).toEqual({ kind: 'resolved', activeAt: at(0), firedAt: at(0), resolvedAt: at(5 * SEC) });
  });
});

describe('unknown evidence: neither fires nor resolves, clocks held', () => {
  it.each([
    {
      given: 'pending (for 60 s)',
      t: timing(),
      steps: [
        [0, 'true'],
        [30 * SEC, 'unknown'],
        [5 * MIN, 'unknown'],
        [5 * MIN + SEC, 'true'],
      ],
      then: ['pending', 'pending', 'pending', 'firing'],
    },
    {
      given: 'firing',
      t: timing({ forMs: 0 }),
      steps: [
        [0, 'true'],
        [10 * SEC, 'unknown'],
        [2 * MIN, 'unknown'],
        [3 * MIN, 'false'],
      ],
      then: ['firing', 'firing', 'firing', 'resolved'],
    },
    {
      given: 'firing, recovering under keepFiringFor 30 s',
      t: timing({ forMs: 0, keepFiringForMs: 30 * SEC }),
      steps: [
        [0, 'true'],
        [10 * SEC, 'false'],
        [20 * SEC, 'unknown'],
        [60 * SEC, 'unknown'],
        [61 * SEC, 'false'],
      ],
      then: ['firing', 'firing', 'firing', 'firing', 'resolved'],
    },
    {
      given: 'inactive',
      t: timing({ forMs: 0 }),
      steps: [
        [0, 'unknown'],
        [MIN, 'unknown'],
      ],
      then: ['inactive', 'inactive'],
    },
  ] as { given: string; t: ReturnType<typeof timing>; steps: [number, Condition][]; then: string[] }[])('given $given, then $then', (c) => {
    expect(run(c.t, c.steps).map((s) => s.kind)).toEqual(c.then);
  });

  it('then a held pending alert keeps its activeAt, and a held keepFiringSince stays the first false evaluation', () => {
    const pending = run(timing(), [
      [0, 'true'],
      [30 * SEC, 'unknown'],
    ]);
    expect(pending[1]).toEqual({ kind: 'pending', activeAt: at(0) });
    const recovering = run(timing({ forMs: 0, keepFiringForMs: 30 * SEC }), [
      [0, 'true'],
      [10 * SEC, 'false'],
      [20 * SEC, 'unknown'],
    ]);
    expect(recovering[2]).toMatchObject({ kind: 'firing', keepFiringSince: at(10 * SEC) });
  });
});

describe('resolved', () => {
  const t = timing({ forMs: 0, resolvedRetentionMs: 15 * MIN });
  it.each([
    {
      when: 'false until exactly the retention',
      steps: [
        [0, 'true'],
        [MIN, 'false'],
        [16 * MIN, 'false'],
      ],
      then: ['firing', 'resolved', 'resolved'],
    },
    {
      when: 'false past the retention',
      steps: [
        [0, 'true'],
        [MIN, 'false'],
        [16 * MIN + 1, 'false'],
      ],
      then: ['firing', 'resolved', 'inactive'],
    },
    {
      when: 'true again',
      steps: [
        [0, 'true'],
        [MIN, 'false'],
        [2 * MIN, 'true'],
      ],
      then: ['firing', 'resolved', 'firing'],
    },
  ] as { when: string; steps: [number, Condition][]; then: string[] }[])('given a resolved alert, when $when, then $then', (c) => {
    expect(run(t, c.steps).map((s) => s.kind)).toEqual(c.then);
  });

  it('then a new activation starts new clocks (as Prometheus does)', () => {
    const states = run(timing({ forMs: 30 * SEC }), [
      [0, 'true'],
      [30 * SEC, 'true'],
      [MIN, 'false'],
      [2 * MIN, 'true'],
    ]);
    expect(states[3]).toEqual({ kind: 'pending', activeAt: at(2 * MIN) });
  });
});

describe('phase', () => {
  it('names resolved as inactive (what Prometheus and the golden cases call it)', () => {
    expect(phase({ kind: 'resolved', activeAt: at(0), firedAt: at(0), resolvedAt: at(1) })).toBe('inactive');
    expect(phase(INACTIVE)).toBe('inactive');
    expect(phase({ kind: 'pending', activeAt: at(0) })).toBe('pending');
    expect(phase({ kind: 'firing', activeAt: at(0), firedAt: at(0), keepFiringSince: null })).toBe('firing');
  });
});

describe('evaluate(rule, evidence, previous, now)', () => {
  const cfg = { ...config(), timings: { ...config().timings, SchedulerStalled: { forMs: MIN, keepFiringForMs: 0 } } };
  it('given a stalled scheduler, then the rule goes pending, and fires once for has passed', () => {
    const input = { scope: 'scheduler' as const, evidence: evidence({ health: 'stalled' }) };
    const pending = evaluate('SchedulerStalled', input, INACTIVE, at(0), cfg);
    expect(pending).toEqual({ kind: 'pending', activeAt: at(0) });
    expect(evaluate('SchedulerStalled', input, pending, at(MIN), cfg).kind).toBe('firing');
  });
  it('given dropped reports (unknown), then SchedulerUnknown activates and SchedulerStalled does not', () => {
    const input = { scope: 'scheduler' as const, evidence: evidence({ health: 'unknown' }) };
    expect(evaluate('SchedulerUnknown', input, INACTIVE, at(0), cfg).kind).toBe('pending');
    expect(evaluate('SchedulerStalled', input, INACTIVE, at(0), cfg).kind).toBe('inactive');
  });
  it('given evidence of the wrong scope, then it refuses (a programming error)', () => {
    expect(() => evaluate('Watchdog', { scope: 'scheduler', evidence: evidence() }, INACTIVE, at(0), cfg)).toThrow(TypeError);
    expect(() => evaluate('SchedulerStalled', { scope: 'service', evidence: { storeReadable: true, lastObservedAt: null } }, INACTIVE, at(0), cfg)).toThrow(
      TypeError,
    );
  });
});
