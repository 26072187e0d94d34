/**
 * The alert config parser: defaults, ceilings, relations, URLs — every
 * error names its variable; timings are durations with a unit.
 */
import { describe, expect, it } from 'vitest';
import { AlertConfigError, DEFAULT_TIMINGS, parseAlertConfig, screamingSnake, timingVariables } from './config';

function errorOf(env: Record<string, string | undefined>): AlertConfigError {
  try {
    parseAlertConfig(env);
  } catch (error) {
    if (error instanceof AlertConfigError) return error;
    throw error;
  }
  throw new Error('expected an AlertConfigError');
}

describe('defaults', () => {
  it('given no environment, then conservative defaults and no delivery target', () => {
    const c = parseAlertConfig({});
    expect(c).toMatchObject({
      externalUrl: 'http://127.0.0.1:3000',
      alertmanagerUrls: [],
      evaluateEveryMs: 5_000,
      resendEveryMs: 60_000,
      resolvedRetentionMs: 900_000,
      rejectionWindowMs: 900_000,
    });
    expect(c.timings).toEqual(DEFAULT_TIMINGS);
    expect(c.timings.SchedulerStalled).toEqual({ forMs: 120_000, keepFiringForMs: 300_000 });
  });
  it('given empty values, then the defaults', () => {
    expect(parseAlertConfig({ LEASEBOARD_ALERT_SCHEDULER_STALLED_FOR: ' ', ALERTMANAGER_URL: '' }).timings.SchedulerStalled.forMs).toBe(120_000);
  });
});

describe('rule timings', () => {
  it('are named after the rule', () => {
    expect(screamingSnake('LeaseRenewalAtRisk')).toBe('LEASE_RENEWAL_AT_RISK');
    expect(timingVariables('SchedulerNoLeader')).toEqual({
      forMs: 'LEASEBOARD_ALERT_SCHEDULER_NO_LEADER_FOR',
      keepFiringForMs: 'LEASEBOARD_ALERT_SCHEDULER_NO_LEADER_KEEP_FIRING_FOR',
    });
    expect(timingVariables('Watchdog')).toBeNull();
  });
  it('given values within the ceilings, then they are used', () => {
    const c = parseAlertConfig({ LEASEBOARD_ALERT_SCHEDULER_STALLED_FOR: '0s', LEASEBOARD_ALERT_SCHEDULER_STALLED_KEEP_FIRING_FOR: '1h' });
    expect(c.timings.SchedulerStalled).toEqual({ forMs: 0, keepFiringForMs: 3_600_000 });
  });
  it.each([
    { env: { LEASEBOARD_ALERT_SCHEDULER_STALLED_FOR: '61m' }, variable: 'LEASEBOARD_ALERT_SCHEDULER_STALLED_FOR', message: /61m is outside 0s–1h/ },
    {
      env: { LEASEBOARD_ALERT_SCHEDULER_UNKNOWN_KEEP_FIRING_FOR: '-1s' },
      variable: 'LEASEBOARD_ALERT_SCHEDULER_UNKNOWN_KEEP_FIRING_FOR',
      message: /expected a duration/,
    },
    { env: { LEASEBOARD_ALERT_LEASE_RENEWAL_AT_RISK_FOR: '300000' }, variable: 'LEASEBOARD_ALERT_LEASE_RENEWAL_AT_RISK_FOR', message: /"300000" has no unit/ },
    { env: { LEASEBOARD_ALERT_EVALUATE_EVERY: '500ms' }, variable: 'LEASEBOARD_ALERT_EVALUATE_EVERY', message: /500ms is outside 1s–1m/ },
    {
      env: { LEASEBOARD_ALERT_STALE_WRITES_REJECTED_WINDOW: '1e6' },
      variable: 'LEASEBOARD_ALERT_STALE_WRITES_REJECTED_WINDOW',
      message: /expected a duration/,
    },
    {
      env: { LEASEBOARD_ALERT_RESEND_EVERY: '10s', LEASEBOARD_ALERT_EVALUATE_EVERY: '20s' },
      variable: 'LEASEBOARD_ALERT_RESEND_EVERY',
      message: /\(10s\) must be ≥ LEASEBOARD_ALERT_EVALUATE_EVERY \(20s\)/,
    },
    {
      env: { LEASEBOARD_ALERT_STATUS_STORE_UNREADABLE_FOR: '10m' },
      variable: 'LEASEBOARD_ALERT_STATUS_STORE_UNREADABLE_FOR',
      message: /≤ LEASEBOARD_ALERT_SCHEDULER_UNKNOWN_FOR .*inhibit/,
    },
  ])('given $variable out of bounds, then the error names it', ({ env, variable, message }) => {
    const error = errorOf(env);
    expect(error.variable).toBe(variable);
    expect(error.message).toContain(variable);
    expect(error.message).toMatch(message);
  });
});

describe('URLs', () => {
  it('given a dashboard URL with a base path and a trailing slash, then it is kept without the slash', () => {
    expect(parseAlertConfig({ LEASEBOARD_EXTERNAL_URL: 'https://ops.example/leaseboard/' }).externalUrl).toBe('https://ops.example/leaseboard');
  });
  it("given LEASEBOARD_PUBLIC_URL (the one setting for the dashboard's URL), then links use it, over the deprecated alias", () => {
    expect(parseAlertConfig({ LEASEBOARD_PUBLIC_URL: 'https://board.example.org/ops/' }).externalUrl).toBe('https://board.example.org/ops');
    expect(parseAlertConfig({ LEASEBOARD_PUBLIC_URL: 'https://a.example', LEASEBOARD_EXTERNAL_URL: 'https://b.example' }).externalUrl).toBe(
      'https://a.example',
    );
  });
  it('given several Alertmanagers, then each is a base URL', () => {
    expect(parseAlertConfig({ ALERTMANAGER_URL: 'http://am-a:9093, http://am-b:9093/am/' }).alertmanagerUrls).toEqual([
      'http://am-a:9093',
      'http://am-b:9093/am',
    ]);
  });
  it.each([
    { env: { ALERTMANAGER_URL: 'am-a:9093' }, variable: 'ALERTMANAGER_URL', message: /http/ },
    { env: { ALERTMANAGER_URL: 'http://a:1,http://a:1' }, variable: 'ALERTMANAGER_URL', message: /twice/ },
    { env: { ALERTMANAGER_URL: Array.from({ length: 11 }, (_, i) => `http://am${i}:9093`).join(',') }, variable: 'ALERTMANAGER_URL', message: /at most 10/ },
    { env: { LEASEBOARD_EXTERNAL_URL: 'https://ops.example/?x=1' }, variable: 'LEASEBOARD_EXTERNAL_URL', message: /query/ },
    { env: { LEASEBOARD_EXTERNAL_URL: 'not a url' }, variable: 'LEASEBOARD_EXTERNAL_URL', message: /absolute/ },
  ])('given a bad $variable, then the error names it', ({ env, variable, message }) => {
    const error = errorOf(env);
    expect(error.variable).toBe(variable);
    expect(error.message).toMatch(message);
  });
  it('given credentials in a URL, then it is refused without echoing them', () => {
    const error = errorOf({ ALERTMANAGER_URL: 'http://user:s3cret@am:9093' });
    expect(error.variable).toBe('ALERTMANAGER_URL');
    expect(error.message).not.toContain('s3cret');
  });
});
