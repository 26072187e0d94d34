import { describe, expect, it } from 'vitest';
import type { MaintenanceListResponse } from '@/lib/api/types';
import { maintenanceMark, openMaintenance } from './maintenance-marks';

const NOW = Date.parse('2026-12-07T12:00:00.000Z');
const HOUR = 3_600_000;
type Window = MaintenanceListResponse['windows'][number];

function window(id: number, over: Partial<Window>): Window {
  return {
    id,
    selector: null,
    schedulers: null,
    startsAt: new Date(NOW - HOUR).toISOString(),
    endsAt: new Date(NOW + HOUR).toISOString(),
    weekly: false,
    reason: `reason ${id}`,
    by: 'erin',
    createdAt: new Date(NOW - 2 * HOUR).toISOString(),
    updatedAt: new Date(NOW - 2 * HOUR).toISOString(),
    cancelledAt: null,
    state: 'open',
    openUntil: null,
    nextOpensAt: null,
    ...over,
  };
}
const answer = (...windows: Window[]): MaintenanceListResponse => ({ observedAt: new Date(NOW).toISOString(), windows });

describe('maintenance marks on the overview', () => {
  it('marks a scheduler its open window covers, by selector or by name, and no other', () => {
    const open = openMaintenance(answer(window(1, { selector: 'team=payments' }), window(2, { schedulers: ['solo'] })), NOW);
    expect(maintenanceMark(open, 'invoices', { team: 'payments' })).toEqual({ window: 1, reason: 'reason 1', untilMs: NOW + HOUR });
    expect(maintenanceMark(open, 'solo', {})?.window).toBe(2);
    expect(maintenanceMark(open, 'search', { team: 'search' })).toBeNull();
  });

  it('judges a window open at the list’s instant, not by the answer’s state: not yet begun, ended or cancelled marks nothing', () => {
    const windows = [
      window(1, { selector: 'team=payments', startsAt: new Date(NOW + HOUR).toISOString(), endsAt: new Date(NOW + 2 * HOUR).toISOString(), state: 'open' }),
      window(2, { selector: 'team=payments', startsAt: new Date(NOW - 2 * HOUR).toISOString(), endsAt: new Date(NOW).toISOString(), state: 'open' }),
      window(3, { selector: 'team=payments', cancelledAt: new Date(NOW - HOUR / 2).toISOString(), state: 'cancelled' }),
    ];
    expect(maintenanceMark(openMaintenance(answer(...windows), NOW), 'invoices', { team: 'payments' })).toBeNull();
  });

  it('with several covering windows, names the one that closes last', () => {
    const open = openMaintenance(
      answer(window(1, { selector: 'team=payments' }), window(2, { selector: 'team', endsAt: new Date(NOW + 3 * HOUR).toISOString() })),
      NOW,
    );
    expect(maintenanceMark(open, 'invoices', { team: 'payments' })).toMatchObject({ window: 2, untilMs: NOW + 3 * HOUR });
  });

  it('marks nothing while the windows are unread, or the list has no instant yet', () => {
    expect(openMaintenance(undefined, NOW)).toEqual([]);
    expect(openMaintenance(answer(window(1, { selector: 'team=payments' })), Date.parse(''))).toEqual([]);
  });
});
