'use client';
/**
 * One scheduler: health and reasons, the two axes, the last hour's timeline,
 * its runs (live), transitions and stale-write rejections. Live (polled, ticking, greyed when
 * not observed) or "as of" an instant (neither polled nor ticking).
 * The server's HTML and the hydration hold what a first screen shows (the
 * header, reasons, the two axes); the sections below mount right after, one
 * per step, each step a transition in a task of its own
 * (lib/client/mounted-later.ts): no commit holds them all.
 */
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useMemo, type ReactNode } from 'react';
import { ApiRequestError } from '@/lib/client/api';
import { retentionRefusalOf } from '@/lib/client/history-answer';
import { schedulerTabTitle, summarize } from '@/lib/client/health-display';
import { STALE_AFTER_POLL_INTERVALS, useIsStale, useObservedStamp } from '@/lib/client/observation-clock';
import { FALLBACK_POLL_INTERVAL_MS, schedulerDetailQuery, schedulerHistoryQuery } from '@/lib/client/queries';
import { viewStatus } from '@/lib/client/status-view';
import { useRenderedCount } from '@/lib/client/mounted-later';
import { AuditTable } from '../audit/audit-table';
import { DemoPanel } from '../demo/demo-panel';
import { DocumentHealth } from '../document-health';
import { LastRunBadge } from '../last-run-badge';
import { HealthBadge } from '../health-badge';
import { DurabilityLine } from '../durability-line';
import { ObservationBanner } from '../observation-banner';
import { ObservationProvider } from '../observation-context';
import { AlertsSection } from './alerts-section';
import { AsOfBanner } from './as-of-banner';
import { AxisPanels } from './axis-panels';
import { IntentControl } from './intent-control';
import { MaintenanceLine, OwnerLine } from './fleet-lines';
import { RunNowControl } from './run-now-control';
import { RunsSection } from './runs-section';
import { MomentLink } from './moment-link';
import { AsOfNotKept } from './not-kept';
import { ReasonsList } from './reasons-list';
import { RejectionsTable } from './rejections-table';
import { TimelineSection } from './timeline-section';
import { TransitionsTable } from './transitions-table';

/** The sections below the first screen, in page order: one more per step after mount. */
function BelowTheFold({ sections }: { sections: ReactNode[] }) {
  return sections.slice(0, useRenderedCount(sections.length, 0, 1));
}

export function SchedulerDetail({ name, at }: { name: string; at: string | null }) {
  const live = at === null;
  const detail = useQuery(schedulerDetailQuery(name, at));
  const history = useQuery(schedulerHistoryQuery(name, at));
  const data = detail.data;
  const stamp = useObservedStamp(data);
  const stale = useIsStale(stamp, STALE_AFTER_POLL_INTERVALS * (data?.body.pollIntervalMs ?? FALLBACK_POLL_INTERVAL_MS), live);
  // The service answered that it cannot read the store: what we still show is old, never green.
  const storeUnreadable = live && detail.error instanceof ApiRequestError && detail.error.code === 'store_unreadable';
  const storeOk = (data?.body.observation.ok ?? false) && !storeUnreadable;
  const observation = useMemo(() => ({ stamp, live, stale, storeOk }), [stamp, live, stale, storeOk]);

  const refusal = detail.error instanceof ApiRequestError ? retentionRefusalOf(detail.error) : null;
  if (!data && refusal !== null && at !== null) return <AsOfNotKept name={name} at={at} retention={refusal} />;
  if (!data) {
    return (
      <p className="banner tone-unknown" role="alert" data-testid="not-observed-banner">
        The status service has not answered for {name}
        {detail.error ? ` (${detail.error.message})` : ''}. Its state is unknown.
      </p>
    );
  }
  const body = data.body;
  const observer = { observedAt: body.observedAt, stale, storeOk };
  const view = viewStatus(body.status, observer);
  const summary = summarize({ [view.health]: 1 }, observer);
  const moment = body.asOf ?? body.observedAt;

  return (
    <ObservationProvider value={observation}>
      <DocumentHealth title={schedulerTabTitle(name, summary)} summary={summary} />
      <nav className="breadcrumbs small" aria-label="Breadcrumb">
        <Link href="/" prefetch={false}>
          All schedulers
        </Link>
      </nav>
      {body.asOf ? (
        <AsOfBanner name={name} asOf={body.asOf} estimated={body.estimated} />
      ) : (
        <ObservationBanner observedAt={body.observedAt} storeOk={storeOk} lastObservedAt={storeOk ? body.observation.lastObservedAt : body.observedAt} />
      )}
      {body.durability ? <DurabilityLine durability={body.durability} stale={stale || !storeOk} /> : null}
      <header className={`detail-header ${view.withdrawn ? 'row-stale' : ''}`}>
        <h1 data-testid="scheduler-name">{name}</h1>
        <HealthBadge health={view.health} stale={view.withdrawn === 'browser_stale'} testId="detail-health" />
        <LastRunBadge run={body.status.lastRun} stale={view.withdrawn === 'browser_stale'} testId="detail-last-run" />
        <MomentLink name={name} at={moment} />
      </header>
      <MaintenanceLine mark={body.maintenance} />
      <OwnerLine owner={body.owner} />
      <ReasonsList reasons={body.status.reasons} />
      <AxisPanels view={view} />
      <BelowTheFold
        sections={[
          <AlertsSection key="alerts" name={name} alerts={body.alerts} modes={body.alertModes} asOf={body.asOf} />,
          <TimelineSection key="timeline" answer={history.data?.body} error={history.error} />,
          live ? <RunsSection key="runs" name={name} /> : null,
          <TransitionsTable key="transitions" transitions={body.transitions} observedAt={body.asOf ?? body.observedAt} />,
          <RejectionsTable key="rejections" rejections={body.rejections} />,
          live ? <IntentControl key="intent" name={name} intent={body.status.intent} /> : null,
          live ? <RunNowControl key="run-now" name={name} disabled={body.status.intent?.disabled ?? false} /> : null,
          <section key="audit" className="panel" aria-labelledby="audit-heading">
            <h2 id="audit-heading">Operator actions</h2>
            <AuditTable scheduler={name} headingId="audit-heading" />
          </section>,
          live ? <DemoPanel key="demo" lease={name} /> : null,
        ]}
      />
    </ObservationProvider>
  );
}
