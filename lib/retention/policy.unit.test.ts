/**
 * The retention policy from the environment: conservative defaults, values
 * refused (never clamped) with the variable's name, relations between kinds.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETENTION, describeDuration, historyHorizonMs, historyRetentionMs, parseRetentionPolicy } from './policy';

const DAY = 86_400_000;

describe('parseRetentionPolicy', () => {
  it('given nothing, then 7 days of reports, renewals, rejections and occurrences; 30 days of lease and alert events; day partitions; a round a minute', () => {
    expect(DEFAULT_RETENTION).toEqual({
      keepMs: {
        reports: 7 * DAY,
        renewals: 7 * DAY,
        rejections: 7 * DAY,
        leaseEvents: 30 * DAY,
        alertEvents: 30 * DAY,
        occurrences: 7 * DAY,
      },
      partitionWidthMs: DAY,
      pruneEveryMs: 60_000,
      batchRows: 5_000,
    });
    expect(historyRetentionMs(DEFAULT_RETENTION)).toBe(7 * DAY);
    expect(historyHorizonMs(DEFAULT_RETENTION, 10 * DAY)).toBe(3 * DAY);
  });

  it('given durations in s, m, h or d, then they are read as such', () => {
    const policy = parseRetentionPolicy({ LEASEBOARD_RETAIN_REPORTS: '36h', LEASEBOARD_RETAIN_ALERT_EVENTS: '90s', LEASEBOARD_PARTITION_WIDTH: '15m' });
    expect(policy.keepMs.reports).toBe(36 * 3_600_000);
    expect(policy.keepMs.alertEvents).toBe(90_000);
    expect(policy.partitionWidthMs).toBe(15 * 60_000);
    expect(historyRetentionMs(policy)).toBe(36 * 3_600_000);
  });

  it.each([
    ['LEASEBOARD_RETAIN_REPORTS', '7 days', /LEASEBOARD_RETAIN_REPORTS: expected a duration such as 250ms, 15s, 2m, 1h or 7d/],
    ['LEASEBOARD_RETAIN_REPORTS', '604800', /LEASEBOARD_RETAIN_REPORTS: "604800" has no unit: add one/],
    ['LEASEBOARD_RETAIN_REPORTS', '91d', /LEASEBOARD_RETAIN_REPORTS: 91d is outside 10s–90d/],
    ['LEASEBOARD_RETAIN_LEASE_EVENTS', '5s', /LEASEBOARD_RETAIN_LEASE_EVENTS: 5s is outside 10s–365d/],
    ['LEASEBOARD_RETENTION_BATCH', '99', /LEASEBOARD_RETENTION_BATCH: 99 is outside 100–50000/],
    ['LEASEBOARD_RETENTION_BATCH', '500.5', /LEASEBOARD_RETENTION_BATCH: expected a whole number/],
    ['LEASEBOARD_PARTITION_WIDTH', '7h', /LEASEBOARD_PARTITION_WIDTH: 7h must divide a day/],
    ['LEASEBOARD_PARTITION_WIDTH', '2d', /LEASEBOARD_PARTITION_WIDTH: 2d is outside 10s–1d/],
    ['LEASEBOARD_RETENTION_EVERY', '1s', /LEASEBOARD_RETENTION_EVERY: 1s is outside 5s–1h/],
    ['LEASEBOARD_RETENTION_BATCH', '1000000', /LEASEBOARD_RETENTION_BATCH: 1000000 is outside 100–50000/],
  ])('given %s=%s, then refused naming the variable', (name, value, message) => {
    expect(() => parseRetentionPolicy({ [name]: value })).toThrow(message);
  });

  it('given lease events kept shorter than the history they explain, then refused', () => {
    expect(() => parseRetentionPolicy({ LEASEBOARD_RETAIN_LEASE_EVENTS: '3d' })).toThrow(
      /LEASEBOARD_RETAIN_LEASE_EVENTS: 3d is shorter than LEASEBOARD_RETAIN_REPORTS \(7d\)/,
    );
    expect(
      parseRetentionPolicy({
        LEASEBOARD_RETAIN_LEASE_EVENTS: '3d',
        LEASEBOARD_RETAIN_REPORTS: '3d',
        LEASEBOARD_RETAIN_RENEWALS: '2d',
        LEASEBOARD_RETAIN_REJECTIONS: '1d',
      }).keepMs.leaseEvents,
    ).toBe(3 * DAY);
  });

  it('given empty values, then the defaults', () => {
    expect(parseRetentionPolicy({ LEASEBOARD_RETAIN_REPORTS: ' ', LEASEBOARD_RETENTION_BATCH: '' })).toEqual(DEFAULT_RETENTION);
  });
});

describe('durations', () => {
  it('says them for people', () => {
    expect([describeDuration(7 * DAY), describeDuration(DAY), describeDuration(36 * 3_600_000), describeDuration(90_000)]).toEqual([
      '7 days',
      '1 day',
      '36 hours',
      '90 seconds',
    ]);
  });
});
