/**
 * Alerts rebuilt from the transitions log, pure: the state as of an instant
 * is the last transition at or before it; spans are clipped to the window
 * and the one still open ends with null.
 */
import { describe, expect, it } from 'vitest';
import { AlertNameSchema } from '../../api/schemas';
import { ALERT_NAMES, silenceFormUrl } from '../../alerts';
import { alertsAt, alertSpans, type AlertEventLog } from './view';

const T0 = Date.parse('2026-11-30T12:00:00Z');
const iso = (ms: number) => new Date(T0 + ms).toISOString();
let id = 0;
const ev = (rule: string, from: string, to: string, atMs: number, mode: AlertEventLog['mode'] = 'on'): AlertEventLog => ({
  id: ++id,
  rule,
  from_state: from,
  to_state: to,
  mode,
  at_ms: T0 + atMs,
});

const log = [
  ev('SchedulerStalled', 'inactive', 'pending', 10_000),
  ev('SchedulerStalled', 'pending', 'firing', 70_000),
  ev('SchedulerUnknown', 'inactive', 'pending', 80_000, 'shadow'),
  ev('SchedulerUnknown', 'pending', 'inactive', 90_000, 'shadow'),
  ev('SchedulerStalled', 'firing', 'resolved', 130_000),
];

describe('alertsAt', () => {
  it('given the transitions, then at each instant the alerts pending or firing then', () => {
    expect(alertsAt(log, T0 + 5_000)).toEqual([]);
    expect(alertsAt(log, T0 + 10_000).map((a) => [a.rule, a.state, a.since])).toEqual([['SchedulerStalled', 'pending', iso(10_000)]]);
    expect(alertsAt(log, T0 + 85_000).map((a) => [a.rule, a.state, a.mode])).toEqual([
      ['SchedulerStalled', 'firing', 'on'],
      ['SchedulerUnknown', 'pending', 'shadow'],
    ]);
    expect(alertsAt(log, T0 + 130_000)).toEqual([]);
    expect(alertsAt([ev('NoLongerARule', 'inactive', 'firing', 0)], T0 + 1)).toEqual([]);
  });
});

describe('alertSpans', () => {
  it('given a window, then spans clipped to it, the one still open at its end with to null', () => {
    expect(alertSpans(log, T0 + 60_000, T0 + 100_000)).toEqual([
      { rule: 'SchedulerStalled', state: 'pending', from: iso(60_000), to: iso(70_000), mode: 'on' },
      { rule: 'SchedulerStalled', state: 'firing', from: iso(70_000), to: null, mode: 'on' },
      { rule: 'SchedulerUnknown', state: 'pending', from: iso(80_000), to: iso(90_000), mode: 'shadow' },
    ]);
    expect(alertSpans(log, T0 + 140_000, T0 + 200_000)).toEqual([]);
  });
});

describe('contract', () => {
  it('the API lists exactly the catalogue’s rules', () => {
    expect([...AlertNameSchema.options]).toEqual([...ALERT_NAMES]);
  });
  it('a silence link prefills matchers, quoting label values', () => {
    const url = silenceFormUrl('http://am:9093', { alertname: 'SchedulerStalled', scheduler: 'a "b" \\ c' });
    expect(url).toBe(`http://am:9093/#/silences/new?filter=${encodeURIComponent('{alertname="SchedulerStalled", scheduler="a \\"b\\" \\\\ c"}')}`);
  });
});
