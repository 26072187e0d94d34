'use client';
/**
 * Operator actions, newest first: who — and how that identity was established
 * (SSO, or the operator token with a name typed at sign-in, or a command run
 * with database access) — what (from → to), why, when. Audit rows are never
 * pruned.
 */
import { memo } from 'react';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import type { AuditEntry } from '@/lib/api/types';
import { auditQuery } from '@/lib/client/queries';
import { ScrollTable } from '../scroll-table';
import { Instant } from '@/components/instant';

const ACTION: Record<AuditEntry['action'], string> = {
  'scheduler.disable': 'disabled scheduler',
  'scheduler.enable': 'enabled scheduler',
  'scheduler.labels': 'set labels',
  'scheduler.run_now': 'asked to run now',
  'alert.mode': 'set alert mode',
  'demo.fault': 'fault drill',
  'report_token.create': 'created report token',
  'report_token.revoke': 'revoked report token',
  'maintenance.create': 'scheduled maintenance window',
  'maintenance.edit': 'changed maintenance window',
  'maintenance.cancel': 'cancelled maintenance window',
  'team.owner': 'set team owner',
};

const IDENTIFIED: Record<NonNullable<AuditEntry['identifiedBy']>, { label: string; title: string }> = {
  sso: { label: 'SSO', title: 'Named by the SSO proxy, from a trusted address' },
  token: { label: 'operator token, name typed', title: 'Signed in with the operator token; the name was typed at sign-in, not verified' },
  cli: { label: 'command line', title: 'A command run with access to the database (npm run intent / alerts); the name was given on its command line' },
  service_token: { label: 'service token', title: 'A service token an admin made for a script; the name is the token’s' },
};

/** Who, and how that was established (older rows: not recorded). */
function Who({ entry }: { entry: AuditEntry }) {
  const how = entry.identifiedBy === null ? null : IDENTIFIED[entry.identifiedBy];
  return (
    <>
      {entry.who}
      <br />
      <span className="muted small" title={how?.title ?? 'Recorded before Leaseboard kept how identities were established'} data-testid="audit-identified-by">
        {how?.label ?? 'how identified: not recorded'}
      </span>
    </>
  );
}

/** What was done: the action, and for a fault drill which drill on which process (demo id and instance token). */
function What({ entry, withRule }: { entry: AuditEntry; withRule: boolean }) {
  if (entry.fault !== null) {
    return (
      <>
        {ACTION[entry.action]}: <strong>{entry.fault.drill}</strong> on {entry.fault.process}
        {entry.fault.instance ? (
          <>
            {' '}
            (<code>{entry.fault.instance}</code>)
          </>
        ) : null}
      </>
    );
  }
  return (
    <>
      {ACTION[entry.action]}
      {withRule && entry.rule !== null ? ` of ${entry.rule}` : ''}
    </>
  );
}

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

export const AuditTable = memo(function AuditTable({ scheduler, headingId }: { scheduler: string | null; headingId: string }) {
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
          <td className="num">
            <Instant iso={entry.at} />
          </td>
          <td>
            <Who entry={entry} />
          </td>
          <td>
            <What entry={entry} withRule={scheduler !== null} />
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
});
