'use client';
/**
 * The reliability report: for a window (24 h, 7 d, 30 d) and a label
 * selector, the share of time each scheduler — and the group — spent in each
 * health, least reliable first; time nobody judged is shown as unknown, never
 * as up. A large group shows its least reliable 200 (the total and the
 * exports hold them all). The window and selector live in the URL.
 */
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useMemo } from 'react';
import type { SchedulerReliability } from '@/lib/api/types';
import { withBasePath } from '@/lib/client/base-path';
import { reliabilityPath } from '@/lib/client/api';
import { reliabilityQuery } from '@/lib/client/queries';
import { HEALTH_SEVERITY } from '@/lib/status/health';
import { isReliabilityWindow, leastReliableFirst, RELIABILITY_WINDOWS } from '@/lib/status/reliability';
import { ScrollTable } from '../scroll-table';
import { UrlSelectorForm, useUrlQuery } from '../url-selector-form';

/** Rows drawn at most: beyond a few hundred the page is a download, not a report. */
const SHOWN_ROWS = 200;

const percent = (f: number | null) => (f === null ? '—' : `${(f * 100).toFixed(f > 0 && f < 0.001 ? 3 : 1)} %`);

type Row = Pick<SchedulerReliability, 'fractions' | 'accountedMs'> & { name: string };

function Cells({ row }: { row: Row }) {
  return (
    <>
      {HEALTH_SEVERITY.map((h) => (
        <td key={h} className="num" data-health={h} data-testid={`reliability-${h}`}>
          {percent(row.fractions[h])}
        </td>
      ))}
    </>
  );
}

export function ReliabilityReport() {
  const { params, selector, replace } = useUrlQuery();
  const rawWindow = params.get('window');
  const window = isReliabilityWindow(rawWindow) ? rawWindow : '24h';
  const query = useQuery(reliabilityQuery(window, selector));
  const report = query.data?.body;
  const ranked = useMemo(() => (report ? leastReliableFirst(report.schedulers) : []), [report]);
  return (
    <>
      <UrlSelectorForm testIdPrefix="reliability">
        <label>
          Window{' '}
          <select value={window} onChange={(e) => replace({ window: e.target.value })} data-testid="reliability-window">
            {RELIABILITY_WINDOWS.map((w) => (
              <option key={w} value={w}>
                {w}
              </option>
            ))}
          </select>
        </label>{' '}
      </UrlSelectorForm>
      <p className="small">
        Export:{' '}
        <a href={withBasePath(reliabilityPath(window, selector, 'csv'))} download data-testid="reliability-csv">
          CSV
        </a>{' '}
        <a href={withBasePath(reliabilityPath(window, selector))} data-testid="reliability-json">
          JSON
        </a>
      </p>
      {query.error ? (
        <p className="banner tone-unknown" role="alert" data-testid="reliability-error">
          The report could not be read ({query.error.message}).
        </p>
      ) : !report ? (
        <p className="muted">Reading the health rollup…</p>
      ) : (
        <>
          {ranked.length > SHOWN_ROWS ? (
            <p className="small" data-testid="reliability-more">
              The least reliable {SHOWN_ROWS} of {ranked.length}: a label selector narrows them, and the CSV holds them all.
            </p>
          ) : null}
          <ScrollTable
            labelledBy="reliability-heading"
            testId="reliability-table"
            columns={[{ label: 'Scheduler' }, ...HEALTH_SEVERITY.map((h) => ({ label: h.replace('_', ' '), num: true }))]}
          >
            <tr data-testid="reliability-total">
              <th scope="row">
                All {report.schedulers.length} {report.selector ? `(${report.selector})` : ''}
              </th>
              <Cells row={{ name: 'total', ...report.total }} />
            </tr>
            {ranked.slice(0, SHOWN_ROWS).map((s) => (
              <tr key={s.name} data-testid="reliability-row" data-name={s.name}>
                <td>
                  <Link href={`/schedulers/${encodeURIComponent(s.name)}`}>{s.name}</Link>
                </td>
                <Cells row={s} />
              </tr>
            ))}
          </ScrollTable>
        </>
      )}
    </>
  );
}
