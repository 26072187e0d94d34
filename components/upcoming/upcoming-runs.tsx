'use client';
/**
 * The next hour, fleet-wide: each scheduler whose next occurrence starts
 * within the hour, soonest first, filtered by the URL's label selector. "In
 * 12 min" is counted on the server's clock at the read, never the browser's;
 * a disabled scheduler and a slot nobody holds say so instead of a time that
 * will not come as shown.
 */
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import type { UpcomingResponse } from '@/lib/api/types';
import { withBasePath } from '@/lib/client/base-path';
import { upcomingPath } from '@/lib/client/api';
import { upcomingQuery } from '@/lib/client/queries';
import { formatDuration, formatIn } from '@/lib/status';
import { Instant } from '../instant';
import { ScrollTable } from '../scroll-table';
import { UrlSelectorForm, useUrlQuery } from '../url-selector-form';

type Run = UpcomingResponse['runs'][number];

function When({ run, observedAt }: { run: Run; observedAt: string }) {
  if (run.due) return <>due now</>;
  return <>{formatIn(Date.parse(run.at) - Date.parse(observedAt))}</>;
}

/** What will actually happen at that slot, beside the time. */
function Fate({ run }: { run: Run }) {
  if (run.disabled) return <span className="badge tone-muted">disabled: nothing starts</span>;
  if (!run.held) return <span className="badge tone-warn">no holder: waits for one</span>;
  return <span className="muted">held</span>;
}

export function UpcomingRuns() {
  const { selector } = useUrlQuery();
  const query = useQuery(upcomingQuery(selector));
  const answer = query.data?.body;
  return (
    <>
      <UrlSelectorForm testIdPrefix="upcoming" />
      <p className="small">
        <a href={withBasePath(upcomingPath(selector))} data-testid="upcoming-json">
          JSON
        </a>
      </p>
      {query.error ? (
        <p className="banner tone-unknown" role="alert" data-testid="upcoming-error">
          What runs next could not be read ({query.error.message}).
        </p>
      ) : !answer ? (
        <p className="muted">Reading the schedulers…</p>
      ) : answer.runs.length === 0 ? (
        <p className="muted" data-testid="upcoming-none">
          Nothing {selector === '' ? '' : `that ${selector} picks `}starts before <Instant iso={answer.until} />.
        </p>
      ) : (
        <>
          {answer.total > answer.runs.length ? (
            <p className="small" data-testid="upcoming-more">
              The soonest {answer.runs.length} of {answer.total} that start before <Instant iso={answer.until} />: a label selector narrows them.
            </p>
          ) : null}
          <ScrollTable
            labelledBy="upcoming-heading"
            testId="upcoming-table"
            columns={[{ label: 'Starts' }, { label: 'In' }, { label: 'Scheduler' }, { label: 'Every', num: true }, { label: 'Then' }]}
          >
            {answer.runs.map((run) => (
              <tr key={run.name} data-testid="upcoming-row" data-name={run.name} data-due={run.due}>
                <td className="num">
                  <Instant iso={run.at} />
                </td>
                <td>
                  <When run={run} observedAt={answer.observedAt} />
                </td>
                <td>
                  <Link href={`/schedulers/${encodeURIComponent(run.name)}`} prefetch={false}>
                    {run.name}
                  </Link>
                </td>
                <td className="num">{formatDuration(run.everyMs)}</td>
                <td>
                  <Fate run={run} />
                </td>
              </tr>
            ))}
          </ScrollTable>
        </>
      )}
    </>
  );
}
