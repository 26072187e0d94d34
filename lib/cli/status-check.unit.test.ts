// The plugin's verdicts, table-driven: health → exit code, the fleet's worst wins, and the one line
// with its perfdata — given API answers built by the real projection at a fixed instant.
import { describe, expect, it } from 'vitest';
import type { SchedulerDetailResponse, SchedulerListResponse } from '../api/types';
import { DEFAULT_MAX_STANDBY_LAG_MS, HEALTH_SEVERITY, judgeDurability, project, zeroCounts, type Health, type SchedulerStatus } from '../status';
import { ago, facts, lease, MIN, NOW, primaryFacts, progress, SEC, T } from '../status/test-fixtures';
import { fleetCheck, pluginCode, renderCheck, schedulerCheck, unknownCheck, type PluginCode } from './status-check';

describe('pluginCode: each health has one code', () => {
  it.each([
    ['progressing', 0],
    ['idle', 0],
    ['disabled', 1],
    ['stalled', 2],
    ['no_leader', 2],
    ['unknown', 3],
  ] as const)('%s → %i', (health, code) => {
    expect(pluginCode(health)).toBe(code);
  });

  it("is monotone in the severity order read as Icinga's critical > unknown > warning > ok: the worst health is the worst code", () => {
    const icinga: Record<PluginCode, number> = { 2: 0, 3: 1, 1: 2, 0: 3 };
    const ranks = HEALTH_SEVERITY.map((health) => icinga[pluginCode(health)]);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
  });
});

const withName = (name: string, status: SchedulerStatus): SchedulerStatus => ({ ...status, name });

/** Statuses in each health, projected from fixture facts at NOW. */
const STATUS: Record<Health, SchedulerStatus> = {
  progressing: project(facts(), NOW, T),
  idle: project(facts({ progress: progress({ lastAdvanceAt: ago(5 * MIN), inFlight: null }) }), NOW, T),
  disabled: project(facts({ intent: { disabled: true, by: 'sre', reason: 'maintenance', at: ago(MIN) } }), NOW, T),
  stalled: project(facts({ progress: progress({ lastAdvanceAt: ago(2 * MIN) }) }), NOW, T),
  no_leader: project(facts({ lease: lease({ renewedAt: ago(45 * SEC), expiresAt: ago(30 * SEC) }) }), NOW, T),
  unknown: project(facts({ progress: null }), NOW, T),
};

function list(healths: Health[], over: Partial<SchedulerListResponse> = {}): SchedulerListResponse {
  const counts = zeroCounts();
  for (const h of healths) counts[h] += 1;
  const schedulers = healths.map((h, i) => withName(`${h}-${i}`, STATUS[h]));
  return {
    observedAt: NOW,
    observation: { ok: true, lastObservedAt: NOW },
    pollIntervalMs: 2_000,
    counts,
    matched: counts,
    groups: null,
    total: healths.length,
    limit: 100,
    offset: 0,
    schedulers,
    durability: judgeDurability(primaryFacts(), NOW, DEFAULT_MAX_STANDBY_LAG_MS),
    ...over,
  };
}

describe('fleetCheck: the worst health wins', () => {
  it.each([
    { given: ['progressing', 'idle'], code: 0, text: '2 schedulers: 1 idle, 1 progressing' },
    { given: ['progressing', 'disabled'], code: 1, text: '2 schedulers: 1 disabled (disabled-1), 1 progressing' },
    { given: ['disabled', 'unknown', 'idle'], code: 3, text: '3 schedulers: 1 unknown (unknown-1), 1 disabled (disabled-0), 1 idle' },
    { given: ['unknown', 'no_leader'], code: 2, text: '2 schedulers: 1 no_leader (no_leader-1), 1 unknown (unknown-0)' },
    { given: ['stalled', 'progressing'], code: 2, text: '2 schedulers: 1 stalled (stalled-0), 1 progressing' },
    { given: ['progressing'], code: 0, text: '1 scheduler: 1 progressing' },
  ] as { given: Health[]; code: PluginCode; text: string }[])('given $given → $code', ({ given, code, text }) => {
    const check = fleetCheck(list(given), null);
    expect(check).toMatchObject({ code, text });
  });

  it('counts every health as perfdata, with the thresholds the code alarms on', () => {
    const check = fleetCheck(list(['stalled', 'progressing', 'progressing']), null);
    expect(renderCheck(check)).toBe(
      'LEASEBOARD CRITICAL - 3 schedulers: 1 stalled (stalled-0), 2 progressing | stalled=1;;0;0 no_leader=0;;0;0 unknown=0;;;0 disabled=0;0;;0 idle=0;;;0 progressing=2;;;0 total=3;;;0',
    );
  });

  it('names at most five per health, and says when there are more than the page shows', () => {
    const check = fleetCheck(list(['stalled', 'stalled', 'stalled', 'stalled', 'stalled', 'stalled']), null);
    expect(check.text).toBe('6 schedulers: 6 stalled (stalled-0, stalled-1, stalled-2, stalled-3, stalled-4, …)');
  });

  it('given a store that could not be read: UNKNOWN with why and the last read, no perfdata (nothing is known)', () => {
    const down = list([], { observation: { ok: false, lastObservedAt: null } });
    expect(renderCheck(fleetCheck(down, 'ECONNREFUSED'))).toBe(
      'LEASEBOARD UNKNOWN - status store unreadable (ECONNREFUSED; never read): every scheduler unknown',
    );
    const later = list(['progressing'], { observation: { ok: false, lastObservedAt: ago(MIN) } });
    expect(fleetCheck(later, 'timeout')).toMatchObject({ code: 3, perfdata: [] });
  });

  it('given no scheduler at all: UNKNOWN, nothing to judge', () => {
    expect(fleetCheck(list([]), null)).toMatchObject({ code: 3, text: 'no schedulers in this database: nothing to judge' });
  });
});

describe('schedulerCheck', () => {
  const detail = (status: SchedulerStatus) => ({ status }) as SchedulerDetailResponse;

  it.each(HEALTH_SEVERITY.map((h) => [h, pluginCode(h)] as const))('a %s scheduler → %i, its health and reasons in the line', (health, code) => {
    const check = schedulerCheck(detail(STATUS[health]));
    expect(check.code).toBe(code);
    expect(check.text).toMatch(new RegExp(`^retention-planner ${health}: .+`));
  });

  it('gives its ages in seconds as perfdata, U where there is no evidence', () => {
    expect(schedulerCheck(detail(STATUS.progressing)).perfdata).toEqual([
      'renewal_age=1.000s;;;0',
      'expires_in=14.000s',
      'last_report_age=1.000s;;;0',
      'last_advance_age=3.000s;;;0',
      'epoch=7;;;0',
    ]);
    expect(schedulerCheck(detail(STATUS.unknown)).perfdata).toEqual([
      'renewal_age=1.000s;;;0',
      'expires_in=14.000s',
      'last_report_age=U;;;0',
      'last_advance_age=U;;;0',
      'epoch=7;;;0',
    ]);
  });
});

describe('renderCheck', () => {
  it('keeps one line, and no "|" in the text (it would start the perfdata)', () => {
    expect(renderCheck(unknownCheck('a | b\nc'))).toBe('LEASEBOARD UNKNOWN - a / b c');
  });
});
