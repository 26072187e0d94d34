'use client';
/**
 * The Alerts page: per rule, its mode (operators change it here) and how
 * many of its alerts fire, are pending, or fire in shadow; every alert that
 * is not inactive, each linked to its scheduler as it was at the moment the
 * alert started firing (or went pending); the per-scheduler overrides; and
 * what reached Alertmanager.
 */
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import type { AlertEntry, AlertsResponse } from '@/lib/api/types';
import { alertMoment, deliveryText, MODE_TEXT, runbookPath, schedulerAt } from '@/lib/client/alerts-display';
import { MaintenanceWindows } from './maintenance-windows';
import { formatUtc } from '@/lib/client/format';
import { ALERTS_PAGE_LIMIT, alertsQuery } from '@/lib/client/queries';
import { AlertStateBadge } from './alert-state-badge';
import { ModeControl } from './mode-control';
import { ScrollTable } from '../scroll-table';
import { Instant } from '@/components/instant';

function RulesTable({ body }: { body: AlertsResponse }) {
  return (
    <ScrollTable
      labelledBy="rules-heading"
      testId="alert-rules"
      columns={[
        { label: 'Rule' },
        { label: 'Severity' },
        { label: 'Mode' },
        { label: 'Firing', num: true },
        { label: 'Pending', num: true },
        { label: 'Shadow', num: true },
      ]}
    >
      {body.rules.map((r) => (
        <tr key={r.rule} data-testid="alert-rule" data-rule={r.rule} data-mode={r.mode}>
          <th scope="row">
            <Link href={runbookPath(r.rule)}>{r.rule}</Link>
          </th>
          <td>{r.severity}</td>
          <td>
            <span data-testid="rule-mode">{MODE_TEXT[r.mode]}</span>
            <span className="muted small"> {r.setting ? `(${r.setting.by}, ${formatUtc(r.setting.at)}: ${r.setting.reason})` : '(default)'}</span>{' '}
            <ModeControl rule={r.rule} scheduler={null} current={r.mode} />
          </td>
          <td className="num" data-testid="count-firing">
            {r.counts.firing}
          </td>
          <td className="num" data-testid="count-pending">
            {r.counts.pending}
          </td>
          <td className="num" data-testid="count-shadow">
            {r.counts.shadow}
          </td>
        </tr>
      ))}
    </ScrollTable>
  );
}

function AlertLink({ alert }: { alert: AlertEntry }) {
  if (alert.scheduler === null) return <span className="muted">status service</span>;
  return (
    <Link href={schedulerAt(alert.scheduler, alertMoment(alert))} data-testid="alert-scheduler-link">
      {alert.scheduler}
    </Link>
  );
}

function AlertsTable({ body }: { body: AlertsResponse }) {
  if (body.alerts.length === 0) {
    return (
      <p className="muted" data-testid="alerts-empty">
        No alert is pending or firing.
      </p>
    );
  }
  return (
    <>
      {body.total > body.alerts.length ? (
        <p className="small muted">
          The {body.alerts.length} worst of {body.total} alerts.
        </p>
      ) : null}
      <ScrollTable
        labelledBy="list-heading"
        testId="alert-list"
        columns={[
          { label: 'Rule' },
          { label: 'Scheduler (as it was then)' },
          { label: 'State' },
          { label: 'Since (UTC)' },
          { label: 'Summary' },
          { label: 'Alertmanager' },
        ]}
      >
        {body.alerts.map((a) => (
          <tr key={`${a.rule}/${a.scheduler ?? ''}`} data-testid="alert-entry" data-rule={a.rule} data-scheduler={a.scheduler ?? ''} data-state={a.state}>
            <th scope="row">{a.rule}</th>
            <td>
              <AlertLink alert={a} />
            </td>
            <td>
              <AlertStateBadge state={a.state} mode={a.mode} />
            </td>
            <td className="num">
              <Instant iso={a.since} />
            </td>
            <td className="wrap">{a.summary ?? ''}</td>
            <td data-testid="alert-delivery">
              {a.suppressedBy !== null ? (
                <span data-testid="alert-suppressed">
                  not delivered: suppressed by maintenance window #{a.suppressedBy.window} ({a.suppressedBy.reason}) until{' '}
                  <Instant iso={a.suppressedBy.until} />
                </span>
              ) : (
                deliveryText(a)
              )}
            </td>
          </tr>
        ))}
      </ScrollTable>
    </>
  );
}

function Delivery({ body }: { body: AlertsResponse }) {
  const { alertmanagerUrl, targets } = body.delivery;
  if (alertmanagerUrl === null && targets.length === 0) {
    return (
      <p className="muted" data-testid="delivery-none">
        No Alertmanager is configured (ALERTMANAGER_URL): alerts are evaluated and shown here, and delivered nowhere.
      </p>
    );
  }
  return (
    <>
      {alertmanagerUrl ? (
        <p className="small">
          <a href={alertmanagerUrl} target="_blank" rel="noopener noreferrer">
            Open Alertmanager
          </a>{' '}
          (silences, notification routing).
        </p>
      ) : null}
      {targets.length === 0 ? (
        <p className="muted small">The evaluator has not reported on delivery yet.</p>
      ) : (
        <ScrollTable
          labelledBy="delivery-heading"
          testId="delivery-targets"
          columns={[
            { label: 'Alertmanager' },
            { label: 'State' },
            { label: 'Waiting', num: true },
            { label: 'Accepted', num: true },
            { label: 'Last accepted (UTC)' },
          ]}
        >
          {targets.map((t) => (
            <tr key={t.id} data-testid="delivery-target" data-failing={t.consecutiveFailures > 0}>
              <th scope="row">{t.id}</th>
              <td className={t.consecutiveFailures > 0 ? 'tone-text-bad' : ''}>
                {t.consecutiveFailures > 0
                  ? `failing (${t.lastError ?? 'error'}), ${t.consecutiveFailures} attempt${t.consecutiveFailures === 1 ? '' : 's'}; retrying with backoff`
                  : 'delivering'}
              </td>
              <td className="num">{t.queueDepth}</td>
              <td className="num">{t.sentAlerts}</td>
              <td className="num">{t.lastSuccessAt ? <Instant iso={t.lastSuccessAt} /> : 'never'}</td>
            </tr>
          ))}
        </ScrollTable>
      )}
    </>
  );
}

export function AlertsOverview() {
  const query = useQuery(alertsQuery(ALERTS_PAGE_LIMIT));
  if (query.error) {
    return (
      <p className="banner tone-unknown" role="alert">
        The alerts could not be read ({query.error.message}). Their state is unknown here.
      </p>
    );
  }
  const body = query.data?.body;
  if (!body) return <p className="muted">Reading the alerts…</p>;
  return (
    <>
      <p className="small muted" data-testid="alerts-counts">
        {body.counts.firing} firing, {body.counts.pending} pending (delivered when on); {body.counts.shadow} in shadow or in a maintenance window (shown, never
        delivered). As of <Instant iso={body.observedAt} />.
      </p>
      <section className="panel" aria-labelledby="rules-heading">
        <h2 id="rules-heading">Rules</h2>
        <RulesTable body={body} />
      </section>
      <section className="panel" aria-labelledby="list-heading">
        <h2 id="list-heading">Alerts</h2>
        <AlertsTable body={body} />
      </section>
      <section className="panel" aria-labelledby="maintenance-heading">
        <h2 id="maintenance-heading">Maintenance windows</h2>
        <MaintenanceWindows />
      </section>
      <section className="panel" aria-labelledby="overrides-heading">
        <h2 id="overrides-heading">Per-scheduler modes</h2>
        {body.overrides.length === 0 ? (
          <p className="muted">None: every scheduler follows its rule&apos;s mode.</p>
        ) : (
          <ScrollTable
            labelledBy="overrides-heading"
            testId="alert-overrides"
            columns={[{ label: 'Rule' }, { label: 'Scheduler' }, { label: 'Mode' }, { label: 'Who, when, why' }]}
          >
            {body.overrides.map((o) => (
              <tr key={`${o.rule}/${o.scheduler}`} data-testid="alert-override">
                <th scope="row">{o.rule}</th>
                <td>
                  <Link href={`/schedulers/${encodeURIComponent(o.scheduler)}`}>{o.scheduler}</Link>
                </td>
                <td>{o.mode}</td>
                <td className="wrap small">
                  {o.by}, <Instant iso={o.at} />: {o.reason}
                </td>
              </tr>
            ))}
          </ScrollTable>
        )}
      </section>
      <section className="panel" aria-labelledby="delivery-heading">
        <h2 id="delivery-heading">Delivery</h2>
        <Delivery body={body} />
      </section>
    </>
  );
}
