// Given an incident report's lines (and, for the builder, the reads' facts), when it is rendered,
// then each line is a bullet in time order whose time links to its `?at=` moment, and text from
// people or processes cannot break the list or inject a link.
import { describe, expect, it } from 'vitest';
import type { IncidentResponse, MaintenanceWindowView, SchedulerHistoryResponse } from '../../api/types';
import { buildIncident, type IncidentFacts, maintenanceSpans } from '../incident-entries';
import { escapeMarkdown, incidentMarkdown } from './incident-markdown';

const BASE = 'https://ops.example.org/lb';
const T0 = Date.parse('2026-11-30T16:00:00Z');
const at = (s: number) => new Date(T0 + s * 1000).toISOString();

const history = (over: Partial<SchedulerHistoryResponse> = {}): SchedulerHistoryResponse => ({
  name: 'retention-planner',
  from: at(0),
  to: at(3600),
  bucketMs: 10_000,
  registeredAt: null,
  ttlMs: 15_000,
  segments: [],
  gaps: [],
  tenures: [],
  buckets: [],
  alerts: [],
  ...over,
});

const facts = (over: Partial<IncidentFacts> = {}): IncidentFacts => ({
  name: 'retention-planner',
  fromMs: T0,
  toMs: T0 + 3_600_000,
  nowMs: T0 + 3_700_000,
  history: history(),
  events: [],
  rejections: [],
  alerts: [],
  audit: [],
  maintenance: [],
  truncated: false,
  ...over,
});

describe('buildIncident', () => {
  it('lists a story in time order, each line linked to its moment', () => {
    const report = buildIncident(
      facts({
        history: history({
          segments: [
            { from: at(0), to: at(20), health: 'progressing', gap: null },
            { from: at(20), to: at(40), health: 'no_leader', gap: null },
            { from: at(40), to: at(3600), health: 'progressing', gap: null },
          ],
          tenures: [
            { epoch: 1, holder: 'inst_a', label: null, from: at(-100), to: at(20), began: 'acquired', ended: 'expired' },
            { epoch: 2, holder: 'inst_b', label: 'b', from: at(40), to: null, began: 'taken_over', ended: null },
          ],
        }),
        events: [
          { id: 1, kind: 'acquired', epoch: 1, holder: 'inst_a', label: null, at_ms: T0 - 100_000, previous_epoch: null, previous_ended_ms: null },
          { id: 2, kind: 'taken_over', epoch: 2, holder: 'inst_b', label: 'b', at_ms: T0 + 40_000, previous_epoch: 1, previous_ended_ms: T0 + 20_000 },
        ],
        rejections: [{ at: at(50), attemptedEpoch: 1, currentEpoch: 2, resource: 'plan_items', reason: 'stale_epoch' }],
        audit: [
          {
            id: 'intent-1',
            at: at(60),
            who: 'alice',
            identifiedBy: 'sso',
            action: 'scheduler.disable',
            target: 'retention-planner',
            scheduler: 'retention-planner',
            rule: null,
            fault: null,
            from: 'enabled',
            to: 'disabled',
            reason: 'disk migration',
          },
        ],
        alerts: [{ id: 1, rule: 'scheduler_no_leader', from_state: 'pending', to_state: 'firing', mode: 'on', at_ms: T0 + 30_000 }],
      }),
      BASE,
    );
    expect(report.entries.map((e) => [e.at, e.kind])).toEqual([
      [at(0), 'health'],
      [at(20), 'lapse'],
      [at(30), 'health'],
      [at(30), 'alert'],
      [at(40), 'holder'],
      [at(50), 'health'],
      [at(50), 'stale_write'],
      [at(60), 'operator'],
    ]);
    expect(report.entries[4]).toEqual({
      at: at(40),
      kind: 'holder',
      text: '`inst_b` (b) took over: epoch 1 → 2',
      link: `${BASE}/schedulers/retention-planner?at=${encodeURIComponent(at(40))}`,
    });
    // A change of health is dated at the first bucket end that judged it: the moment whose page shows it.
    expect(report.entries[2]!.text).toBe(`Health became no_leader, judged between ${at(20)} and ${at(30)}`);
    expect(report.entries[1]!.text).toBe('Epoch 1 of `inst_a` expired: no leader until the next grant');
    expect(report.entries[7]!.text).toContain('disk migration');
    expect(report.healthResolutionMs).toBe(10_000);
  });
});

describe('maintenance windows in the report', () => {
  const view = (over: Partial<MaintenanceWindowView>): MaintenanceWindowView => ({
    id: 7,
    selector: 'team=payments',
    schedulers: null,
    startsAt: at(600),
    endsAt: at(1800),
    weekly: false,
    reason: 'database upgrade',
    by: 'ops',
    createdAt: at(0),
    updatedAt: at(0),
    cancelledAt: null,
    state: 'ended',
    openUntil: null,
    nextOpensAt: null,
    ...over,
  });
  const labels = { team: 'payments' };

  it('the windows that cover the scheduler, by selector over its labels or by name; others not', () => {
    const windows = [
      view({}),
      view({ id: 8, selector: 'team=search' }),
      view({ id: 9, selector: null, schedulers: ['retention-planner'], startsAt: at(-600), endsAt: at(60) }),
      view({ id: 10, selector: null, schedulers: ['other'] }),
    ];
    const spans = maintenanceSpans(windows, 'retention-planner', labels, T0, T0 + 3_600_000);
    expect(spans.map((s) => [s.id, s.covers, s.fromMs - T0, s.toMs - T0])).toEqual([
      [9, 'names this scheduler', -600_000, 60_000],
      [7, 'team=payments', 600_000, 1_800_000],
    ]);
  });

  it('opened, in progress at the start, ended and cancelled, in time order among the other lines', () => {
    const spans = maintenanceSpans(
      [view({}), view({ id: 9, startsAt: at(-600), endsAt: at(3000), cancelledAt: at(900) })],
      'retention-planner',
      labels,
      T0,
      T0 + 3_600_000,
    );
    const report = buildIncident(
      facts({ maintenance: spans, alerts: [{ id: 1, rule: 'scheduler_stalled', from_state: 'pending', to_state: 'firing', mode: 'on', at_ms: T0 + 600_000 }] }),
      BASE,
    );
    expect(report.entries.map((e) => [e.at, e.kind, e.text])).toEqual([
      [at(0), 'maintenance', `In maintenance at the start: Maintenance window #9 (covers \`team=payments\`), open since ${at(-600)}, “database upgrade” (ops)`],
      [
        at(600),
        'maintenance',
        'Maintenance window #7 (covers `team=payments`) opened: “database upgrade” (ops); its alerts are not delivered while it is open',
      ],
      [at(600), 'alert', 'Alert scheduler_stalled: pending → firing (mode on)'],
      [at(900), 'maintenance', 'Maintenance window #9 (covers `team=payments`) cancelled: its alerts are delivered again'],
      [at(1800), 'maintenance', 'Maintenance window #7 (covers `team=payments`) ended: its alerts are delivered again'],
    ]);
    expect(incidentMarkdown(report)).toContain(`- [${at(900)}](<`);
    expect(incidentMarkdown(report)).toContain('**maintenance**: Maintenance window \\#9 \\(covers `team=payments`\\) cancelled');
  });
});

describe('incidentMarkdown', () => {
  const report = (entries: IncidentResponse['entries'], truncated = false): IncidentResponse => ({
    scheduler: 'retention-planner',
    from: at(0),
    to: at(3600),
    readAt: at(3700),
    healthResolutionMs: 10_000,
    truncated,
    entries,
  });

  it('renders a title, the range and one bullet per line whose time links to the moment', () => {
    const link = `${BASE}/schedulers/retention-planner?at=${encodeURIComponent(at(40))}`;
    const md = incidentMarkdown(report([{ at: at(40), kind: 'stale_write', text: 'Stale write refused on `plan_items`', link }]));
    expect(md).toBe(
      [
        '# Incident report: retention-planner',
        '',
        `From ${at(0)} to ${at(3600)} (UTC), read at ${at(3700)}. Health judged every 10 s: a shorter episode can fall between two.`,
        '',
        `- [${at(40)}](<${link}>) **stale write**: Stale write refused on \`plan_items\``,
        '',
      ].join('\n'),
    );
  });

  it('says so when nothing happened, and when a list was cut', () => {
    expect(incidentMarkdown(report([]))).toContain('\nNothing happened in this range.\n');
    expect(incidentMarkdown(report([], true))).toContain('**Truncated**');
  });

  it('escapes what people typed: no link, no heading, no new bullet', () => {
    expect(escapeMarkdown('see [here](http://evil)\n- # boom *now*')).toBe('see \\[here\\]\\(http://evil\\) - \\# boom \\*now\\*');
    expect(escapeMarkdown('`inst_a` did [x]')).toBe('`inst_a` did \\[x\\]');
  });
});
