// The overview table's order, given/when/then: given a page of statuses (in the list's order),
// when sorted by a column or grouped by a label, then this order.
import { describe, expect, it } from 'vitest';
import type { GroupSummary, StripRow } from '@/lib/api/types';
import { zeroCounts, type Health, type SchedulerStatus } from '@/lib/status';
import { arrangeRows, LIST_ORDER, nextSort, sortRows, type TableSort } from './fleet-order';

interface Given {
  name: string;
  health: Health;
  labels?: Record<string, string>;
  holder?: string | null;
  epoch?: number | null;
  renewalAgeMs?: number | null;
  lastAdvanceAgeMs?: number | null;
  gap?: boolean;
}

function status(g: Given): SchedulerStatus {
  const renewal = g.renewalAgeMs ?? null;
  const advance = g.lastAdvanceAgeMs ?? null;
  return {
    name: g.name,
    health: g.health,
    labels: g.labels ?? {},
    authority: {
      state: g.holder === null ? 'none' : 'held',
      holder: g.holder ?? null,
      epoch: g.epoch ?? null,
      renewedAt: renewal === null ? null : '2026-12-01T00:00:00.000Z',
      renewalAgeMs: renewal,
    },
    work: { state: 'progressing', occurrence: null, lastAdvanceAt: advance === null ? null : '2026-12-01T00:00:00.000Z', lastAdvanceAgeMs: advance },
    observation: { gap: g.gap ? { from: '2026-12-01T00:00:00.000Z', to: null, reason: 'silence' } : null },
  } as unknown as SchedulerStatus;
}

/** A page in the list's order: worst first, then name. */
const PAGE = [
  status({
    name: 'ledger-close',
    health: 'stalled',
    labels: { team: 'payments', service: 'ledger' },
    holder: 'inst_b',
    epoch: 4,
    renewalAgeMs: 900,
    lastAdvanceAgeMs: 600_000,
  }),
  status({ name: 'docs-index', health: 'unknown', labels: { team: 'search' }, holder: 'inst_c', epoch: 2, renewalAgeMs: 300, gap: true }),
  status({
    name: 'billing-sync',
    health: 'progressing',
    labels: { team: 'payments', service: 'billing' },
    holder: 'inst_a',
    epoch: 12,
    renewalAgeMs: 100,
    lastAdvanceAgeMs: 2_000,
  }),
  status({ name: 'archive', health: 'progressing', holder: null }),
];
const NO_STRIPS = new Map<string, StripRow>();
const names = (rows: readonly SchedulerStatus[]) => rows.map((r) => r.name);
const sorted = (sort: TableSort) => names(sortRows(PAGE, sort, NO_STRIPS));

describe('sortRows', () => {
  it('given the list order (health, worst first), then the page as the server sent it', () => {
    expect(sorted(LIST_ORDER)).toEqual(names(PAGE));
  });

  it.each([
    [{ column: 'name', direction: 'ascending' }, ['archive', 'billing-sync', 'docs-index', 'ledger-close']],
    [{ column: 'name', direction: 'descending' }, ['ledger-close', 'docs-index', 'billing-sync', 'archive']],
    [{ column: 'health', direction: 'ascending' }, ['billing-sync', 'archive', 'docs-index', 'ledger-close']],
    [{ column: 'epoch', direction: 'descending' }, ['billing-sync', 'ledger-close', 'docs-index', 'archive']],
    [{ column: 'leader', direction: 'ascending' }, ['billing-sync', 'ledger-close', 'docs-index', 'archive']],
    [{ column: 'labels', direction: 'ascending' }, ['billing-sync', 'ledger-close', 'docs-index', 'archive']],
    [{ column: 'observation', direction: 'descending' }, ['docs-index', 'ledger-close', 'billing-sync', 'archive']],
  ] as [TableSort, string[]][])('given %o, then %o', (sort, expected) => {
    expect(sorted(sort)).toEqual(expected);
  });

  it('given ages, then a row without evidence (no renewal, no progress yet) sorts last both ways', () => {
    expect(sorted({ column: 'renewal', direction: 'ascending' })).toEqual(['billing-sync', 'docs-index', 'ledger-close', 'archive']);
    expect(sorted({ column: 'renewal', direction: 'descending' })).toEqual(['ledger-close', 'docs-index', 'billing-sync', 'archive']);
    expect(sorted({ column: 'progress', direction: 'ascending' })).toEqual(['billing-sync', 'ledger-close', 'docs-index', 'archive']);
    expect(sorted({ column: 'progress', direction: 'descending' })).toEqual(['ledger-close', 'billing-sync', 'docs-index', 'archive']);
  });

  it('given the history column, then by the worst health in the window; rows without a strip last', () => {
    const strips = new Map([
      ['archive', { worst: 'stalled' } as StripRow],
      ['docs-index', { worst: 'idle' } as StripRow],
    ]);
    expect(names(sortRows(PAGE, { column: 'history', direction: 'descending' }, strips))).toEqual(['archive', 'docs-index', 'ledger-close', 'billing-sync']);
  });
});

describe('nextSort', () => {
  it('turns the same column around; another column starts ascending, health worst first', () => {
    expect(nextSort(LIST_ORDER, 'health')).toEqual({ column: 'health', direction: 'ascending' });
    expect(nextSort(LIST_ORDER, 'renewal')).toEqual({ column: 'renewal', direction: 'ascending' });
    expect(nextSort({ column: 'renewal', direction: 'ascending' }, 'renewal')).toEqual({ column: 'renewal', direction: 'descending' });
    expect(nextSort({ column: 'name', direction: 'ascending' }, 'health')).toEqual(LIST_ORDER);
  });
});

describe('arrangeRows', () => {
  const summary = (value: string | null, total: number): GroupSummary => ({ value, total, counts: zeroCounts() });
  const groups = [summary('billing', 3), summary('indexing', 2), summary('ledger', 1), summary(null, 2)];
  const arranged = (groupKey: string, sort: TableSort, limit = 100) =>
    arrangeRows(PAGE, { groupKey, groups: groupKey === '' ? null : groups, sort, strips: NO_STRIPS, limit }).map((g) => [
      g.value,
      g.summary?.total ?? null,
      names(g.rows),
    ]);

  it('given no group, then one group of every row, the first `limit` only', () => {
    expect(arranged('', LIST_ORDER)).toEqual([[null, null, names(PAGE)]]);
    expect(arranged('', LIST_ORDER, 2)).toEqual([[null, null, ['ledger-close', 'docs-index']]]);
  });

  it("given the server's groups, then the page's rows under them in its order, the unlabelled last, groups without rows here left out", () => {
    expect(arranged('service', LIST_ORDER)).toEqual([
      ['billing', 3, ['billing-sync']],
      ['ledger', 1, ['ledger-close']],
      [null, 2, ['docs-index', 'archive']],
    ]);
  });

  it('given a column sort, then each group sorts its own rows; the limit cuts after grouping', () => {
    expect(arranged('service', { column: 'name', direction: 'ascending' }, 3)).toEqual([
      ['billing', 3, ['billing-sync']],
      ['ledger', 1, ['ledger-close']],
      [null, 2, ['archive']],
    ]);
  });
});
