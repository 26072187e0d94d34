'use client';
/**
 * A scheduler's runs: when its next occurrence starts (its slot, due now, or
 * "whenever the holder next runs" without a known cadence) and its last runs
 * with duration, outcome and exit code. Live only: the runs API reads now.
 * "In 4 min" is counted on the server's clock at the read, never the browser's.
 */
import { useQuery } from '@tanstack/react-query';
import type { SchedulerRunsResponse } from '@/lib/api/types';
import { schedulerRunsQuery } from '@/lib/client/queries';
import { formatDuration, formatIn } from '@/lib/status';
import { Epoch } from '../epoch';
import { Instant } from '../instant';
import { ScrollTable } from '../scroll-table';

type Run = SchedulerRunsResponse['runs'][number];

const OUTCOME_TONE: Record<Run['outcome'], string> = { running: 'tone-muted', completed: 'tone-good', failed: 'tone-bad' };

function NextOccurrence({ answer }: { answer: SchedulerRunsResponse }) {
  const next = answer.next;
  if (next.kind === 'whenever') {
    return (
      <p data-testid="next-run" data-kind="whenever">
        Next occurrence: {next.message} (no cadence registered).
      </p>
    );
  }
  return (
    <p data-testid="next-run" data-kind={next.due ? 'due' : 'slot'}>
      Next occurrence: the slot of <Instant iso={next.at} />
      {next.due ? ' — due now: the holder claims it at its next pass' : ` (${formatIn(Date.parse(next.at) - Date.parse(answer.observedAt))})`}
      {answer.everyMs !== null ? <span className="muted"> · every {formatDuration(answer.everyMs)}</span> : null}
    </p>
  );
}

export function RunsSection({ name }: { name: string }) {
  const query = useQuery(schedulerRunsQuery(name));
  const answer = query.data?.body;
  return (
    <section className="panel" aria-labelledby="runs-heading" data-testid="runs-section">
      <h2 id="runs-heading">Runs</h2>
      {query.error ? (
        <p className="banner tone-unknown" role="alert" data-testid="runs-error">
          The runs could not be read ({query.error.message}).
        </p>
      ) : !answer ? (
        <p className="muted">Reading the runs…</p>
      ) : (
        <>
          <NextOccurrence answer={answer} />
          {answer.runs.length === 0 ? (
            <p className="muted" data-testid="no-runs">
              No run is kept yet.
            </p>
          ) : (
            <ScrollTable
              labelledBy="runs-heading"
              testId="runs-table"
              columns={[
                { label: 'Slot' },
                { label: 'Started' },
                { label: 'Duration', num: true },
                { label: 'Outcome' },
                { label: 'Exit code', num: true },
                { label: 'Epoch', num: true },
              ]}
            >
              {answer.runs.map((run) => (
                <tr key={run.key} data-testid="run-row" data-outcome={run.outcome} data-key={run.key}>
                  <td className="num">
                    <Instant iso={run.scheduledAt} />
                  </td>
                  <td className="num">
                    <Instant iso={run.startedAt} />
                  </td>
                  <td className="num">{run.durationMs === null ? '—' : formatDuration(run.durationMs)}</td>
                  <td>
                    <span className={`badge ${OUTCOME_TONE[run.outcome]}`}>{run.outcome}</span>
                  </td>
                  <td className="num">{run.exitCode ?? '—'}</td>
                  <td className="num">
                    <Epoch value={run.epoch} />
                  </td>
                </tr>
              ))}
            </ScrollTable>
          )}
        </>
      )}
    </section>
  );
}
