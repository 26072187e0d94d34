'use client';
/**
 * A scheduler's alerts: each rule's mode here (and where it comes from), the
 * alerts that are pending, firing or recently resolved — with what reached
 * Alertmanager, a link to the page as it was when the alert started firing,
 * the runbook, and Alertmanager's silence form prefilled with the alert's
 * matchers (when ALERTMANAGER_URL is set). Operators change a rule's mode
 * for this scheduler here. As of an instant: which alerts were pending or
 * firing then, no controls.
 */
import { memo } from 'react';
import Link from 'next/link';
import type { SchedulerAlert, SchedulerAlertMode } from '@/lib/api/types';
import { alertMoment, deliveryText, MODE_SOURCE_TEXT, runbookPath, schedulerAt } from '@/lib/client/alerts-display';
import { formatUtc } from '@/lib/client/format';
import { AlertStateBadge } from '../alerts/alert-state-badge';
import { ModeControl } from '../alerts/mode-control';
import { ScrollTable } from '../scroll-table';
import { Instant } from '@/components/instant';

function AlertRow({ name, alert, live }: { name: string; alert: SchedulerAlert; live: boolean }) {
  return (
    <tr data-testid="scheduler-alert" data-rule={alert.rule} data-state={alert.state} data-mode={alert.mode}>
      <th scope="row">
        <Link href={runbookPath(alert.rule)} title="Runbook">
          {alert.rule}
        </Link>
      </th>
      <td>
        <AlertStateBadge state={alert.state} mode={alert.mode} />
      </td>
      <td className="num">
        since <Instant iso={alert.since} />
        {live ? (
          <>
            {' · '}
            <Link href={schedulerAt(name, alertMoment(alert))} data-testid="alert-moment-link">
              as it {alert.firedAt ? 'started firing' : 'went pending'}
            </Link>
          </>
        ) : null}
      </td>
      <td className="wrap">{alert.summary ?? ''}</td>
      <td data-testid="alert-delivery">{live ? deliveryText(alert) : ''}</td>
      <td>
        {alert.silenceUrl ? (
          <a href={alert.silenceUrl} target="_blank" rel="noopener noreferrer" data-testid="silence-link">
            Silence in Alertmanager
          </a>
        ) : null}
      </td>
    </tr>
  );
}

export const AlertsSection = memo(function AlertsSection({
  name,
  alerts,
  modes,
  asOf,
}: {
  name: string;
  alerts: SchedulerAlert[];
  modes: SchedulerAlertMode[];
  asOf: string | null;
}) {
  const live = asOf === null;
  return (
    <section className="panel" aria-labelledby="alerts-heading" data-testid="alerts-section">
      <h2 id="alerts-heading">Alerts</h2>
      {alerts.length === 0 ? (
        <p className="muted" data-testid="alerts-none">
          {live ? 'No alert is pending or firing for this scheduler.' : `No alert was pending or firing at ${formatUtc(asOf)}.`}
        </p>
      ) : (
        <ScrollTable
          labelledBy="alerts-heading"
          testId="scheduler-alerts"
          columns={[
            { label: 'Rule' },
            { label: 'State' },
            { label: 'When' },
            { label: 'Summary' },
            { label: live ? 'Alertmanager' : '' },
            { label: 'Silence', hidden: true },
          ]}
        >
          {alerts.map((alert) => (
            <AlertRow key={alert.rule} name={name} alert={alert} live={live} />
          ))}
        </ScrollTable>
      )}
      {live && modes.length > 0 ? (
        <details className="alert-modes" data-testid="alert-modes">
          <summary>Rule modes for {name}</summary>
          <ScrollTable
            label={`Rule modes for ${name}`}
            columns={[{ label: 'Rule' }, { label: 'Mode here' }, { label: 'Set by' }, { label: 'Change', hidden: true }]}
          >
            {modes.map((m) => (
              <tr key={m.rule} data-testid="alert-mode-row" data-rule={m.rule} data-mode={m.mode}>
                <th scope="row">{m.rule}</th>
                <td>
                  <strong>{m.mode}</strong> <span className="muted small">({MODE_SOURCE_TEXT[m.source]})</span>
                </td>
                <td className="wrap small">{m.setting ? `${m.setting.by}, ${formatUtc(m.setting.at)}: ${m.setting.reason}` : '—'}</td>
                <td>
                  <ModeControl rule={m.rule} scheduler={name} current={m.mode} />
                </td>
              </tr>
            ))}
          </ScrollTable>
        </details>
      ) : null}
    </section>
  );
});
