/**
 * One alert under its mode on fake time: what is sent when (Alertmanager's
 * re-send expectations), withdrawal when a mode leaves `on`, and when a
 * record can be forgotten.
 */
import { describe, expect, it } from 'vitest';
import { isDelivered, stepAlert, type StepClock } from './step';
import { at, MIN, SEC, timing } from './test-fixtures';
import type { AlertMode, AlertRecord, Condition } from './types';

const RESEND = MIN;
const EVERY = 5 * SEC;
const clockAt = (ms: number): StepClock => ({ now: at(ms), resendEveryMs: RESEND, evaluateEveryMs: EVERY });

type Row = [ms: number, mode: AlertMode, condition: Condition];

/** Runs the rows; returns, per row, the state kind, what was sent (or '-') and whether a record is kept. */
function run(rows: Row[], t = timing({ forMs: 0 })) {
  let record: AlertRecord | undefined;
  return rows.map(([ms, mode, condition]) => {
    const step = stepAlert(t, mode, condition, record, () => `summary at ${ms}`, clockAt(ms));
    record = step.record ?? undefined;
    return {
      state: step.record?.state.kind ?? 'inactive',
      sent: step.send?.as ?? '-',
      kept: step.record !== null,
      send: step.send,
      record: step.record,
      transition: step.transition,
    };
  });
}

describe('re-sending a firing alert', () => {
  it('given mode on, then it is sent when it fires and again every resendEvery, not in between', () => {
    const out = run([
      [0, 'on', 'true'],
      [5 * SEC, 'on', 'true'],
      [MIN - 1, 'on', 'true'],
      [MIN, 'on', 'true'],
      [MIN + 5 * SEC, 'on', 'true'],
      [2 * MIN, 'on', 'true'],
    ]);
    expect(out.map((o) => o.sent)).toEqual(['firing', '-', '-', 'firing', '-', 'firing']);
  });

  it('then startsAt is firedAt and endsAt is now + 4 × max(resendEvery, evaluateEvery)', () => {
    const out = run([
      [10 * SEC, 'on', 'true'],
      [70 * SEC, 'on', 'true'],
    ]);
    expect(out[0]!.send).toEqual({ as: 'firing', startsAt: at(10 * SEC), endsAt: at(10 * SEC + 4 * RESEND), firedAt: at(10 * SEC) });
    expect(out[1]!.send).toEqual({ as: 'firing', startsAt: at(10 * SEC), endsAt: at(70 * SEC + 4 * RESEND), firedAt: at(10 * SEC) });
  });

  it('given pending, then nothing is sent', () => {
    const out = run(
      [
        [0, 'on', 'true'],
        [30 * SEC, 'on', 'true'],
      ],
      timing({ forMs: MIN }),
    );
    expect(out.map((o) => [o.state, o.sent])).toEqual([
      ['pending', '-'],
      ['pending', '-'],
    ]);
  });
});

describe('resolving', () => {
  it('given a delivered alert resolves, then the resolve is sent at once with endsAt = resolvedAt, re-sent every resendEvery while retained, then forgotten', () => {
    const out = run(
      [
        [0, 'on', 'true'],
        [10 * SEC, 'on', 'false'],
        [20 * SEC, 'on', 'false'],
        [70 * SEC, 'on', 'false'],
        [15 * MIN + 10 * SEC, 'on', 'false'],
        [15 * MIN + 10 * SEC + 1, 'on', 'false'],
      ],
      timing({ forMs: 0, resolvedRetentionMs: 15 * MIN }),
    );
    expect(out.map((o) => [o.state, o.sent, o.kept])).toEqual([
      ['firing', 'firing', true],
      ['resolved', 'resolved', true],
      ['resolved', '-', true],
      ['resolved', 'resolved', true],
      ['resolved', 'resolved', true],
      ['inactive', '-', false],
    ]);
    expect(out[1]!.send).toEqual({ as: 'resolved', startsAt: at(0), endsAt: at(10 * SEC), firedAt: at(0) });
    expect(out[3]!.send?.endsAt).toBe(at(10 * SEC));
  });

  it('given an alert that resolved in shadow, then nothing is ever sent', () => {
    const out = run([
      [0, 'shadow', 'true'],
      [10 * SEC, 'shadow', 'false'],
      [20 * SEC, 'on', 'false'],
      [2 * MIN, 'on', 'false'],
    ]);
    expect(out.map((o) => o.sent)).toEqual(['-', '-', '-', '-']);
  });

  it('given a pending alert that recovers, then the record is forgotten', () => {
    const out = run(
      [
        [0, 'on', 'true'],
        [10 * SEC, 'on', 'false'],
      ],
      timing({ forMs: MIN }),
    );
    expect(out.map((o) => [o.state, o.kept])).toEqual([
      ['pending', true],
      ['inactive', false],
    ]);
  });
});

describe('modes', () => {
  it('given shadow, then the state machine runs and nothing is sent', () => {
    const out = run([
      [0, 'shadow', 'true'],
      [2 * MIN, 'shadow', 'true'],
    ]);
    expect(out.map((o) => [o.state, o.sent])).toEqual([
      ['firing', '-'],
      ['firing', '-'],
    ]);
  });

  it('given shadow → on while firing, then the firing alert is sent at the switch with its original startsAt', () => {
    const out = run([
      [0, 'shadow', 'true'],
      [30 * SEC, 'on', 'true'],
    ]);
    expect(out[1]!.send).toMatchObject({ as: 'firing', startsAt: at(0) });
  });

  it('given on → shadow while firing, then it is withdrawn once (endsAt = now) and the state is kept', () => {
    const out = run([
      [0, 'on', 'true'],
      [30 * SEC, 'shadow', 'true'],
      [40 * SEC, 'shadow', 'true'],
      [50 * SEC, 'on', 'true'],
    ]);
    expect(out.map((o) => [o.state, o.sent])).toEqual([
      ['firing', 'firing'],
      ['firing', 'resolved'],
      ['firing', '-'],
      ['firing', 'firing'],
    ]);
    expect(out[1]!.send).toEqual({ as: 'resolved', startsAt: at(0), endsAt: at(30 * SEC), firedAt: at(0) });
  });

  it('given on → off while firing, then the state is forgotten, the alert withdrawn, and the transition recorded', () => {
    const out = run([
      [0, 'on', 'true'],
      [30 * SEC, 'off', 'true'],
    ]);
    expect(out[1]).toMatchObject({ state: 'inactive', sent: 'resolved', kept: false, transition: { from: 'firing', to: 'inactive' } });
    expect(out[1]!.send).toEqual({ as: 'resolved', startsAt: at(0), endsAt: at(30 * SEC), firedAt: at(0) });
  });

  it('given off → on, then evaluation starts afresh (for counts from the first evaluation in on)', () => {
    const out = run(
      [
        [0, 'off', 'true'],
        [30 * SEC, 'on', 'true'],
        [60 * SEC, 'on', 'true'],
        [90 * SEC, 'on', 'true'],
      ],
      timing({ forMs: MIN }),
    );
    expect(out.map((o) => o.state)).toEqual(['inactive', 'pending', 'pending', 'firing']);
  });

  it('isDelivered: firing under on only', () => {
    const firing = { kind: 'firing', activeAt: at(0), firedAt: at(0), keepFiringSince: null } as const;
    expect(isDelivered(firing, 'on')).toBe(true);
    expect(isDelivered(firing, 'shadow')).toBe(false);
    expect(isDelivered({ kind: 'pending', activeAt: at(0) }, 'on')).toBe(false);
  });
});

describe('records', () => {
  it('keep the summary of the last true evaluation that changed the state or sent, through false and unknown ones', () => {
    const out = run([
      [0, 'on', 'true'],
      [10 * SEC, 'on', 'true'],
      [20 * SEC, 'on', 'unknown'],
      [MIN, 'on', 'true'],
      [70 * SEC, 'on', 'false'],
    ]);
    expect(out.map((o) => o.record?.summary)).toEqual(['summary at 0', 'summary at 0', 'summary at 0', `summary at ${MIN}`, `summary at ${MIN}`]);
  });
  it('report a transition only when the state kind changes (retention expiry is not a fact)', () => {
    const out = run(
      [
        [0, 'on', 'true'],
        [5 * SEC, 'on', 'true'],
        [10 * SEC, 'on', 'false'],
        [20 * MIN, 'on', 'false'],
      ],
      timing({ forMs: 0, resolvedRetentionMs: MIN }),
    );
    expect(out.map((o) => o.transition)).toEqual([{ from: 'inactive', to: 'firing' }, null, { from: 'firing', to: 'resolved' }, null]);
  });
});
