/**
 * The overview table's order: a column to sort the page's rows by, and the
 * groups of a list grouped by a label.
 *
 * The server orders the list (worst health first, then name; by group first
 * when grouped) and pages it; a column sort reorders the rows of the page
 * shown (within each group), so it is a view of what is loaded, never a
 * second query. `LIST_ORDER` — health, worst first — is the server's own.
 *
 * Guarantees: pure (no DOM, no clock); stable — equal values keep the list's
 * order; a row without a value (no holder, no epoch, no renewal, no progress
 * yet) sorts after every row with one in both directions: missing evidence
 * never ranks as the freshest or the oldest.
 */
import type { GroupSummary, StripRow } from '@/lib/api/types';
import { formatLabels } from '@/lib/limits/labels';
import { HEALTH_SEVERITY, type AuthorityState, type Health, type SchedulerStatus, type WorkState } from '@/lib/status';

export type SortColumn =
  'name' | 'labels' | 'health' | 'history' | 'lease' | 'leader' | 'epoch' | 'renewal' | 'work' | 'progress' | 'occurrence' | 'observation';
type SortDirection = 'ascending' | 'descending';
export interface TableSort {
  column: SortColumn;
  direction: SortDirection;
}

/** The list's own order: health, worst first (then name). */
export const LIST_ORDER: TableSort = { column: 'health', direction: 'descending' };

/** Severity as a number that grows with badness (HEALTH_SEVERITY is worst first). */
const badness = (health: Health) => HEALTH_SEVERITY.length - 1 - HEALTH_SEVERITY.indexOf(health);

/** Authority and work states from sound to alarming; unknown last (never sorted among the sound). */
const AUTHORITY_ORDER: readonly AuthorityState[] = ['held', 'released', 'expired', 'none', 'unknown'];
const WORK_ORDER: readonly WorkState[] = ['progressing', 'idle', 'none', 'stalled', 'unknown'];

type Value = string | number | null;

function valueOf(column: SortColumn, s: SchedulerStatus, strip: StripRow | undefined): Value {
  switch (column) {
    case 'name':
      return s.name;
    case 'labels': {
      const text = formatLabels(s.labels ?? {});
      return text === '' ? null : text;
    }
    case 'health':
      return badness(s.health);
    case 'history':
      return strip?.worst == null ? null : badness(strip.worst);
    case 'lease':
      return AUTHORITY_ORDER.indexOf(s.authority.state);
    case 'leader':
      return s.authority.holder;
    case 'epoch':
      return s.authority.epoch;
    case 'renewal':
      return s.authority.renewedAt === null ? null : s.authority.renewalAgeMs;
    case 'work':
      return WORK_ORDER.indexOf(s.work.state);
    case 'progress':
      return s.work.lastAdvanceAt === null ? null : s.work.lastAdvanceAgeMs;
    case 'occurrence':
      return s.work.occurrence;
    case 'observation':
      return s.observation.gap === null ? 0 : 1;
    default: {
      const never: never = column;
      return never;
    }
  }
}

const compareValues = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);

/** The page's rows in `sort`'s order (a new array; the input is left as it is). */
export function sortRows(rows: readonly SchedulerStatus[], sort: TableSort, strips: ReadonlyMap<string, StripRow>): SchedulerStatus[] {
  const sign = sort.direction === 'ascending' ? 1 : -1;
  const keyed = rows.map((status, index) => ({ status, index, value: valueOf(sort.column, status, strips.get(status.name)) }));
  keyed.sort((a, b) => {
    if (a.value === null || b.value === null) return a.value === b.value ? a.index - b.index : a.value === null ? 1 : -1;
    return sign * compareValues(a.value, b.value) || a.index - b.index;
  });
  return keyed.map((k) => k.status);
}

/** A header's next sort: the same column turns around; another starts ascending (health: worst first). */
export function nextSort(current: TableSort, column: SortColumn): TableSort {
  if (current.column === column) return { column, direction: current.direction === 'ascending' ? 'descending' : 'ascending' };
  return { column, direction: column === 'health' ? 'descending' : 'ascending' };
}

export interface RowGroup {
  /** The label's value (null: schedulers without it); null `summary` when the list is not grouped. */
  value: string | null;
  summary: GroupSummary | null;
  rows: SchedulerStatus[];
}

/**
 * The page's rows in their groups, in the server's group order (`groups`: every group of the
 * selection; only those with rows on this page are returned). Not grouped: one group of all rows.
 */
function groupRows(rows: readonly SchedulerStatus[], key: string, groups: readonly GroupSummary[] | null): RowGroup[] {
  if (key === '' || groups === null) return [{ value: null, summary: null, rows: [...rows] }];
  const byValue = new Map<string | null, SchedulerStatus[]>();
  for (const row of rows) {
    const value = row.labels?.[key] ?? null;
    const members = byValue.get(value);
    if (members === undefined) byValue.set(value, [row]);
    else members.push(row);
  }
  return groups.flatMap((summary) => {
    const members = byValue.get(summary.value);
    return members === undefined ? [] : [{ value: summary.value, summary, rows: members }];
  });
}

/** The rows a table shows: grouped, each group sorted (the list's own order kept as sent), the first `limit` rows only. */
export function arrangeRows(
  rows: readonly SchedulerStatus[],
  options: { groupKey: string; groups: readonly GroupSummary[] | null; sort: TableSort; strips: ReadonlyMap<string, StripRow>; limit: number },
): RowGroup[] {
  const { sort, strips } = options;
  const out: RowGroup[] = [];
  let left = options.limit;
  for (const group of groupRows(rows, options.groupKey, options.groups)) {
    if (left <= 0) break;
    const sorted = sort === LIST_ORDER ? group.rows : sortRows(group.rows, sort, strips);
    const shown = sorted.slice(0, left);
    left -= shown.length;
    out.push({ ...group, rows: shown });
  }
  return out;
}
