// The list's filtered page and what it summarises: given schedulers in list order (worst first),
// when filtered by a selector and grouped by a label, then the rows come group by group (values in
// order, the unlabelled last), each group keeps the list's order, the health filter narrows the
// rows but not the counts, and paging cuts the grouped order.
import { describe, expect, it } from 'vitest';
import { parseSelector } from '../../limits/selector';
import { zeroCounts, type Health } from '../../status';
import { compareGroupValues, filterPage } from './filter-page';
import { normalizeListParams, type ListParams } from './list-params';

interface Row {
  name: string;
  health: Health;
  labels: Record<string, string>;
}

const row = (name: string, health: Health, labels: Record<string, string>): Row => ({ name, health, labels });

/** In list order: worst health first, then name. */
const FLEET: Row[] = [
  row('billing-sync', 'stalled', { team: 'payments', service: 'billing' }),
  row('ledger-close', 'no_leader', { team: 'payments', service: 'ledger' }),
  row('docs-index', 'unknown', { team: 'search', service: 'documents' }),
  row('billing-export', 'idle', { team: 'payments', service: 'billing' }),
  row('payouts', 'progressing', { team: 'payments' }),
  row('ledger-audit', 'progressing', { team: 'payments', service: 'ledger' }),
];

function page(params: Omit<ListParams, 'selector'> & { selector?: string }) {
  const selector = params.selector === undefined ? undefined : parseSelector(params.selector);
  if (selector !== undefined && !selector.ok) throw new Error(selector.message);
  const p = normalizeListParams({ ...params, selector: selector?.selector });
  return filterPage(FLEET, p, { name: (r) => r.name, labels: (r) => r.labels, health: (r) => r.health });
}

const counts = (given: Partial<Record<Health, number>>) => ({ ...zeroCounts(), ...given });

describe('filterPage', () => {
  it('given no group, then the list order and a page of it; matched counts what the selector selects', () => {
    const result = page({ selector: 'team=payments', limit: 2, offset: 1 });
    expect(result.picked.map((r) => r.name)).toEqual(['ledger-close', 'billing-export']);
    expect(result.total).toBe(5);
    expect(result.matched).toEqual(counts({ stalled: 1, no_leader: 1, idle: 1, progressing: 2 }));
    expect(result.groups).toBeNull();
  });

  it('given a group, then rows group by group (unlabelled last), each in list order, with one summary per group', () => {
    const result = page({ selector: 'team=payments', group: 'service' });
    expect(result.picked.map((r) => r.name)).toEqual(['billing-sync', 'billing-export', 'ledger-close', 'ledger-audit', 'payouts']);
    expect(result.groups).toEqual([
      { value: 'billing', total: 2, counts: counts({ stalled: 1, idle: 1 }) },
      { value: 'ledger', total: 2, counts: counts({ no_leader: 1, progressing: 1 }) },
      { value: null, total: 1, counts: counts({ progressing: 1 }) },
    ]);
  });

  it('given a health filter, then it narrows the rows and the total, never the counts', () => {
    const result = page({ group: 'service', health: ['progressing'] });
    expect(result.picked.map((r) => r.name)).toEqual(['ledger-audit', 'payouts']);
    expect(result.total).toBe(2);
    expect(result.matched).toEqual(counts({ stalled: 1, no_leader: 1, unknown: 1, idle: 1, progressing: 2 }));
    expect(result.groups?.map((g) => [g.value, g.total])).toEqual([
      ['billing', 2],
      ['documents', 1],
      ['ledger', 2],
      [null, 1],
    ]);
  });

  it('given paging, then pages cut the grouped order', () => {
    expect(page({ group: 'service', limit: 2, offset: 2 }).picked.map((r) => r.name)).toEqual(['docs-index', 'ledger-close']);
  });

  it('given a name query and a selector that match nothing, then nothing, and no groups', () => {
    const result = page({ q: 'billing', selector: 'team=search', group: 'service' });
    expect(result).toEqual({ total: 0, picked: [], matched: zeroCounts(), groups: [] });
  });

  it('orders values by code point and the unlabelled after every value', () => {
    expect([null, 'b', 'B', 'a'].sort(compareGroupValues)).toEqual(['B', 'a', 'b', null]);
  });
});
