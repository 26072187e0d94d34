// The dashboard's words for a 410 outside_retention, from the server's answer.
import { describe, expect, it } from 'vitest';
import { noLongerKept, retentionRefusalOf } from './history-answer';

const retention = { oldestKept: '2026-11-24T08:00:00.000Z', keptMs: 7 * 86_400_000, keptFor: '7 days' };

describe('no longer kept', () => {
  it('says the retention the server answered with', () => {
    expect(noLongerKept(retention)).toBe('no longer kept (retention 7 days)');
    expect(noLongerKept({ ...retention, keptMs: 120_000, keptFor: '2 minutes' })).toBe('no longer kept (retention 2 minutes)');
  });

  it('is read only from a 410 outside_retention that carries its retention', () => {
    expect(retentionRefusalOf({ code: 'outside_retention', retention })).toBe(retention);
    expect(retentionRefusalOf({ code: 'outside_retention', retention: null })).toBeNull();
    expect(retentionRefusalOf({ code: 'store_unreadable' })).toBeNull();
    expect(retentionRefusalOf({ code: 'invalid_parameter', retention })).toBeNull();
    expect(retentionRefusalOf(null)).toBeNull();
  });
});
