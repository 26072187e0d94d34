/**
 * One scheduler: identity, labels and health, then the Authority group (lease state,
 * leader, epoch, renewal age, time to expiry) and the Progress group (work
 * state, last progress, occurrence and cursor, observation). A table row on
 * wide screens; the same cells lay out as a card below 1,360 px (see
 * globals.css: there each cell's `data-label` becomes its visible label).
 * The name (the row's identity) and the occurrence always show in full:
 * they wrap, never ellipsis, never only in a tooltip.
 */
import Link from 'next/link';
import { memo, useMemo } from 'react';
import { formatCursor } from '@/lib/client/format';
import { formatLabels } from '@/lib/limits/labels';
import type { LocalStamp } from '@/lib/client/local-clock';
import { sameRowFacts, viewStatus, type Observer } from '@/lib/client/status-view';
import type { StripRow } from '@/lib/api/types';
import type { StripAxis } from '@/lib/client/strip-view';
import type { TimeMode } from '@/lib/client/time-zone';
import type { SchedulerStatus, StripWindow } from '@/lib/status';
import { HealthStrip } from './health-strip';
import { AuthorityChip, WorkChip } from '../axis-chips';
import { GapBadge } from '../gap-badge';
import { HealthBadge } from '../health-badge';
import { ToneIcon } from '../tone-icon';
import type { MaintenanceMark } from '@/lib/client/maintenance-marks';
import { LastRunBadge } from '../last-run-badge';
import { ObservationProvider } from '../observation-context';
import { AgeText, ExpiryText } from '../ticking-text';
import { RelativeTime } from '../timestamp';
import { Epoch } from '@/components/epoch';

/** `lease@2026-11-30T16:00:00Z`, allowed to wrap after the `@` (and anywhere, if it must): always shown whole. */
function OccurrenceKey({ occurrence }: { occurrence: string | null }) {
  if (occurrence === null) return '—';
  const at = occurrence.lastIndexOf('@');
  if (at < 0) return occurrence;
  return (
    <>
      {occurrence.slice(0, at + 1)}
      <wbr />
      {occurrence.slice(at + 1)}
    </>
  );
}

/** `key=value` chips, in key order (neither keys nor values can hold "," or "="); none: a dash. One line in the table, the whole set in its title. */
function LabelList({ labels }: { labels: SchedulerStatus['labels'] }) {
  const text = formatLabels(labels ?? {});
  if (text === '') return <span className="muted">—</span>;
  return (
    <span className="label-list" title={text.replaceAll(',', ', ')} data-testid="labels">
      {text.split(',').map((label) => (
        <code key={label} className="label-chip">
          {label}
        </code>
      ))}
    </span>
  );
}

function GroupHeading({ children }: { children: string }) {
  return <span className="card-group-heading">{children}</span>;
}

export interface SchedulerRowProps {
  status: SchedulerStatus;
  observer: Observer;
  /** When `status` was observed, on the local clock: the row's ages advance from it. */
  stamp: LocalStamp | null;
  strip: StripRow | undefined;
  axis: StripAxis | null;
  window: StripWindow;
  mode: TimeMode;
  /** The zone local times are shown in (lib/client/time-zone.ts `useTimeZone`). */
  timeZone: string | undefined;
  /** The open maintenance window covering it (lib/client/maintenance-marks.ts), or null: a mark beside the health, never instead of it. */
  maintenance: MaintenanceMark | null;
}

/**
 * A newer answer re-renders the row only when what it shows changed: its facts
 * (not the ages, which it advances from its own answer's observation), whether
 * the observation backs them, its strip, or the display settings.
 */
function sameRow(a: SchedulerRowProps, b: SchedulerRowProps): boolean {
  return (
    a.strip === b.strip &&
    a.axis === b.axis &&
    a.window === b.window &&
    a.mode === b.mode &&
    a.timeZone === b.timeZone &&
    a.maintenance?.window === b.maintenance?.window &&
    a.maintenance?.untilMs === b.maintenance?.untilMs &&
    a.observer.stale === b.observer.stale &&
    a.observer.storeOk === b.observer.storeOk &&
    (a.stamp === null) === (b.stamp === null) &&
    sameRowFacts(a.status, a.observer.observedAt, b.status, b.observer.observedAt)
  );
}

/** Memoised (see `sameRow`); never re-rendered by the 1 s ticker (the ages write themselves in place). */
export const SchedulerRow = memo(function SchedulerRow({ status, observer, stamp, strip, axis, window, mode, timeZone, maintenance }: SchedulerRowProps) {
  const view = viewStatus(status, observer);
  const { authority, work } = status;
  const stale = view.withdrawn === 'browser_stale';
  const rowStale = stale ? 'row-stale' : '';
  const observation = useMemo(() => ({ stamp, live: true, stale: observer.stale, storeOk: observer.storeOk }), [stamp, observer.stale, observer.storeOk]);
  return (
    <ObservationProvider value={observation}>
      <tr className={`scheduler-row ${rowStale}`} data-testid="scheduler-row" data-name={status.name} data-health={view.health}>
        <th scope="row" className="cell-name">
          <Link href={`/schedulers/${encodeURIComponent(status.name)}`} prefetch={false} data-testid="scheduler-link">
            {status.name}
          </Link>
        </th>
        <td className="cell-labels" data-label="Labels">
          <LabelList labels={status.labels} />
        </td>
        <td className="cell-health">
          <span className="stack">
            <HealthBadge health={view.health} stale={stale} testId="health-badge" />
            <LastRunBadge run={status.lastRun} stale={stale} quiet testId="last-run" />
            {maintenance && (
              <span
                className="badge tone-muted"
                data-testid="maintenance-badge"
                data-window={maintenance.window}
                title={`Window #${maintenance.window}: ${maintenance.reason}`}
              >
                <ToneIcon tone="muted" />
                <span>in maintenance</span>
              </span>
            )}
          </span>
        </td>
        <td className="cell-history" data-label="History">
          <HealthStrip row={strip} axis={axis} window={window} mode={mode} timeZone={timeZone} />
        </td>
        <td className="cell-group-start cell-lease">
          <GroupHeading>Authority</GroupHeading>
          <AuthorityChip view={view} testId="authority-state" />
        </td>
        <td className="cell-leader" data-label="Leader">
          <span className="stack">
            <code data-testid="leader-token">{authority.holder ?? '—'}</code>
            <span className="muted small" data-testid="leader-label">
              {authority.label ?? '\u00a0'}
            </span>
          </span>
        </td>
        <td className="cell-epoch num" data-label="Epoch">
          <span data-testid="epoch">
            <Epoch value={authority.epoch} />
          </span>
        </td>
        <td className="cell-renewed num" data-label="Renewal">
          <span className="stack">
            <AgeText serverMs={authority.renewedAt === null ? null : authority.renewalAgeMs} testId="renewal-age" />
            <ExpiryText serverMs={authority.expiresAt === null ? null : authority.expiresInMs} className="muted small" testId="expires-in" />
          </span>
        </td>
        <td className="cell-group-start cell-work">
          <GroupHeading>Progress</GroupHeading>
          <WorkChip view={view} testId="work-state" />
        </td>
        <td className="cell-progress num" data-label="Last progress">
          <RelativeTime iso={work.lastAdvanceAt} ageMs={work.lastAdvanceAgeMs} testId="last-progress" />
        </td>
        <td className="cell-occurrence" data-label="Occurrence · cursor">
          <span className="stack">
            <span className="wrap-anywhere" data-testid="occurrence">
              <OccurrenceKey occurrence={work.occurrence} />
            </span>
            <span className="muted small num" data-testid="cursor">
              cursor {formatCursor(work.cursor)}
            </span>
          </span>
        </td>
        <td className="cell-observation" data-label="Observation">
          <GapBadge gap={view.gap} stale={stale} testId="gap" />
        </td>
      </tr>
    </ObservationProvider>
  );
}, sameRow);
