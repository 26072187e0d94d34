/**
 * Every table of the dashboard: on a narrow screen it scrolls sideways inside
 * a labelled, keyboard-focusable region instead of widening the page. Its
 * header row is declared once as columns: `num` right-aligns figures,
 * `hidden` keeps a header for screen readers only (an action column); a
 * `null` column is left out (a column shown only in some views).
 */
import type { ReactNode } from 'react';

interface Column {
  label: string;
  num?: boolean;
  hidden?: boolean;
}

export interface ScrollTableProps {
  /** The id of the heading that names the table, or else a label of its own. */
  labelledBy?: string;
  label?: string;
  testId?: string;
  /** Classes beside `plain-table`. */
  className?: string;
  columns: readonly (Column | null)[];
  /** The rows. */
  children: ReactNode;
}

export function ScrollTable({ labelledBy, label, testId, className, columns, children }: ScrollTableProps) {
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-labelledby={labelledBy} aria-label={labelledBy ? undefined : label}>
      <table className={className ? `plain-table ${className}` : 'plain-table'} data-testid={testId}>
        <thead>
          <tr>
            {columns.map((column, index) =>
              column === null ? null : (
                <th key={index} scope="col" className={column.num ? 'num' : undefined}>
                  {column.hidden ? <span className="visually-hidden">{column.label}</span> : column.label}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
