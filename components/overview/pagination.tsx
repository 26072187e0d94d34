/** Server-side pages of PAGE_SIZE rows: "1–100 of 1,000", previous and next. */
import { PAGE_SIZE } from '@/lib/client/list-params';

export interface PaginationProps {
  page: number;
  total: number;
  shown: number;
  onPage(page: number): void;
}

export function Pagination({ page, total, shown, onPage }: PaginationProps) {
  const first = total === 0 ? 0 : (page - 1) * PAGE_SIZE + 1;
  const last = (page - 1) * PAGE_SIZE + shown;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  return (
    <nav className="pagination" aria-label="Pages">
      <p className="num" data-testid="page-range">
        {first}–{last} of {total}
      </p>
      <div className="pagination-buttons">
        <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)} data-testid="page-previous">
          Previous
        </button>
        <span className="num muted">
          Page {page} of {pages}
        </span>
        <button type="button" disabled={page >= pages} onClick={() => onPage(page + 1)} data-testid="page-next">
          Next
        </button>
      </div>
    </nav>
  );
}
