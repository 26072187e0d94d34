/**
 * The timeline's alert lane: when each rule was pending or firing over the
 * window, one row per rule, drawn to the same time scale as the charts above
 * (as far as the window goes), and said in words beside it (screen readers
 * and tests read the words; the bars only repeat them).
 */
import type { AlertSpan, SchedulerHistoryResponse } from '@/lib/api/types';
import { alertTone } from '@/lib/client/alerts-display';
import { Instant } from '@/components/instant';

export function AlertSpans({ history }: { history: SchedulerHistoryResponse }) {
  const from = Date.parse(history.from);
  const to = Date.parse(history.to);
  const width = Math.max(1, to - from);
  const rules = [...new Set(history.alerts.map((s) => s.rule))];
  if (rules.length === 0) {
    return (
      <p className="small muted" data-testid="alert-spans-none">
        No alert was pending or firing in this window.
      </p>
    );
  }
  const pct = (ms: number) => `${(Math.min(Math.max(ms - from, 0), width) / width) * 100}%`;
  const bar = (span: AlertSpan) => {
    const start = Date.parse(span.from);
    const end = span.to === null ? to : Date.parse(span.to);
    return { left: pct(start), width: `calc(${pct(end)} - ${pct(start)})` };
  };
  return (
    <div className="alert-lanes" data-testid="alert-spans">
      <h3 className="chart-title">Alerts: pending and firing</h3>
      <ul className="strip-legend small" aria-label="Alert bars" data-testid="alert-legend">
        <li>
          <span className="alert-swatch state-pending tone-warn" aria-hidden="true" />
          Pending (waiting out its <code>for</code>)
        </li>
        <li>
          <span className="alert-swatch state-firing tone-bad" aria-hidden="true" />
          Firing
        </li>
        <li>
          <span className="alert-swatch state-firing tone-muted" aria-hidden="true" />
          Shadow or off (not sent)
        </li>
      </ul>
      {rules.map((rule) => (
        <div key={rule} className="alert-lane">
          <span className="alert-lane-name small">{rule}</span>
          <div className="alert-lane-track" aria-hidden="true">
            {history.alerts
              .filter((s) => s.rule === rule)
              .map((s) => (
                <span key={`${s.state}-${s.from}`} className={`alert-lane-bar tone-${alertTone(s.state, s.mode)} state-${s.state}`} style={bar(s)} />
              ))}
          </div>
        </div>
      ))}
      <ul className="small alert-span-list">
        {history.alerts.map((s) => (
          <li key={`${s.rule}-${s.state}-${s.from}`} data-testid="alert-span" data-rule={s.rule} data-state={s.state} data-mode={s.mode}>
            {s.rule} {s.state}
            {s.mode === 'on' ? '' : ` (${s.mode})`} <Instant iso={s.from} clock />–{s.to === null ? 'now' : <Instant iso={s.to} clock />}
          </li>
        ))}
      </ul>
    </div>
  );
}
