'use client';
/** Operator actions, newest first: who, what (from → to), why, when. Audit rows are never pruned. */
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import type { AuditEntry } from '@/lib/api/types';
import { formatUtc } from '@/lib/client/format';
import { auditQuery } from '@/lib/client/queries';
import { ScrollTable } from '../scroll-table';

const ACTION: Record<AuditEntry['action'], string> = {
  'scheduler.disable': 'disabled scheduler',
  'scheduler.enable': 'enabled scheduler',
  'alert.mode': 'set alert mode',
};

/** What was acted on: a scheduler (linked), or an alert rule (on one scheduler, or as a whole). */
function Target({ entry }: { entry: AuditEntry }) {
  const scheduler = entry.scheduler === null ? null : <Link href={`/schedulers/${encodeURIComponent(entry.scheduler)}`}>{entry.scheduler}</Link>;
  if (entry.rule === null) return scheduler;
  return (
    <>
      <Link href="/alerts">{entry.rule}</Link>
      {scheduler ? <> on {scheduler}</> : null}
    </>
  );
}

export function AuditTable({ scheduler, headingId }: { scheduler: string | null; headingId: string }) {
  const query = useQuery(auditQuery(scheduler));
  if (query.error) {
    return (
      <p className="banner tone-unknown" role="alert">
        The audit trail could not be read ({query.error.message}).
      </p>
    );
  }
  const entries = query.data?.body.entries;
  if (!entries) return <p className="muted">Reading the audit trail…</p>;
  if (entries.length === 0) {
    return (
      <p className="muted" data-testid="audit-empty">
        No operator action recorded{scheduler ? ' for this scheduler' : ''}.
      </p>
    );
  }
  return (
    <ScrollTable
      labelledBy={headingId}
      testId="audit-table"
      className="audit-table"
      columns={[
        { label: 'When (UTC)' },
        { label: 'Who' },
        { label: 'What' },
        scheduler === null ? { label: 'Scheduler or rule' } : null,
        { label: 'From → to' },
        { label: 'Why' },
      ]}
    >
      {entries.map((entry) => (
        <tr key={entry.id} data-testid="audit-row" data-action={entry.action}>
          <td className="num">{formatUtc(entry.at)}</td>
          <td>{entry.who}</td>
          <td>
            {ACTION[entry.action]}
            {scheduler !== null && entry.rule !== null ? ` of ${entry.rule}` : ''}
          </td>
          {scheduler === null ? (
            <td>
              <Target entry={entry} />
            </td>
          ) : null}
          <td>
            {entry.from} → {entry.to}
          </td>
          <td className="wrap">{entry.reason}</td>
        </tr>
      ))}
    </ScrollTable>
  );
}
