/**
 * A sortable column header: a button inside the `th` (keyboard and screen
 * readers reach it as a button), `aria-sort` on the `th` for the column the
 * rows are sorted by, and an arrow that says which way.
 */
import type { ReactNode } from 'react';
import type { SortColumn, TableSort } from '@/lib/client/fleet-order';

export interface SortHeaderProps {
  column: SortColumn;
  sort: TableSort;
  onSort(column: SortColumn): void;
  className?: string;
  rowSpan?: number;
  children: ReactNode;
}

export function SortHeader({ column, sort, onSort, className, rowSpan, children }: SortHeaderProps) {
  const active = sort.column === column;
  return (
    <th scope="col" rowSpan={rowSpan} className={className} aria-sort={active ? sort.direction : undefined} data-testid={`sort-${column}`}>
      <button type="button" className="sort-button" onClick={() => onSort(column)}>
        {children}
        <span className="sort-arrow" aria-hidden="true">
          {active ? (sort.direction === 'ascending' ? '▲' : '▼') : '↕'}
        </span>
      </button>
    </th>
  );
}
