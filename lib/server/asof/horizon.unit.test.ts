// The history horizon, pure: given a policy and the database's now, an
// instant at the horizon is inside, one millisecond earlier is refused with
// 410 naming the oldest instant kept and the retention.
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETENTION, parseRetentionPolicy } from '../../retention';
import { httpError } from '../http/result';
import { outsideRetention } from './horizon';

const DAY = 86_400_000;
const now = Date.UTC(2026, 11, 1, 8, 0, 0);

describe('outsideRetention', () => {
  it('given the default policy (7 days), the horizon itself is inside and one ms before it is outside', () => {
    const horizon = now - 7 * DAY;
    expect(outsideRetention('at', horizon, DEFAULT_RETENTION, now)).toBeNull();
    expect(outsideRetention('at', now, DEFAULT_RETENTION, now)).toBeNull();
    expect(httpError(outsideRetention('at', horizon - 1, DEFAULT_RETENTION, now)!)).toEqual({
      status: 410,
      code: 'outside_retention',
      message: 'at: 2026-11-24T07:59:59.999Z is no longer kept; the oldest instant kept is 2026-11-24T08:00:00.000Z (kept 7 days)',
      retention: { oldestKept: '2026-11-24T08:00:00.000Z', keptMs: 7 * DAY, keptFor: '7 days' },
    });
  });

  it('takes the shortest of the logs a rebuild reads (reports, renewals, rejections, lease events)', () => {
    const policy = parseRetentionPolicy({ LEASEBOARD_RETAIN_RENEWALS: '36h' });
    expect(outsideRetention('from', now - 36 * 3_600_000, policy, now)).toBeNull();
    expect(outsideRetention('from', now - 36 * 3_600_000 - 1, policy, now)).toMatchObject({
      message: expect.stringMatching(/^from: .* \(kept 36 hours\)$/),
      retention: { keptMs: 36 * 3_600_000, keptFor: '36 hours' },
    });
  });

  it('a shrunk retention (the soak) moves the horizon to minutes ago', () => {
    const policy = parseRetentionPolicy({ LEASEBOARD_RETAIN_REPORTS: '2m', LEASEBOARD_RETAIN_RENEWALS: '2m', LEASEBOARD_RETAIN_REJECTIONS: '2m' });
    expect(outsideRetention('at', now - 120_000, policy, now)).toBeNull();
    expect(httpError(outsideRetention('at', now - 120_001, policy, now)!).retention).toEqual({
      oldestKept: '2026-12-01T07:58:00.000Z',
      keptMs: 120_000,
      keptFor: '2 minutes',
    });
  });
});
