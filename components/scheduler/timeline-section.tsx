'use client';
/**
 * The timeline's section. recharts is loaded only when the section comes near
 * the viewport (it is below the fold on a phone), and its box is reserved
 * meanwhile, so it neither delays the first paint nor shifts the layout.
 * The chart re-renders only when the history changes, never with the 1 s ticker.
 * A window older than what is kept says so ("no longer kept (retention 7 days)").
 */
import dynamic from 'next/dynamic';
import { memo, useEffect, useRef, useState } from 'react';
import type { HistoryAnswer } from '@/lib/client/history-answer';
import { registrationInWindow } from '@/lib/client/timeline';
import { AlertSpans } from './alert-spans';
import { NotKept } from './not-kept';
import { Instant } from '@/components/instant';
import { withBasePath } from '@/lib/client/base-path';

const TimelineChart = memo(
  dynamic(() => import('./timeline-chart').then((m) => m.TimelineChart), {
    ssr: false,
    loading: () => <div className="timeline-placeholder" aria-hidden="true" />,
  }),
);

function useNearViewport(): [React.RefObject<HTMLElement | null>, boolean] {
  const ref = useRef<HTMLElement | null>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element || near) return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setNear(true), { rootMargin: '0px 0px 100px 0px' });
    observer.observe(element);
    return () => observer.disconnect();
  }, [near]);
  return [ref, near];
}

/** The incident report of the window shown (GET /api/v1/schedulers/{name}/incident), as a Markdown download. */
function incidentHref(name: string, from: string, to: string): string {
  const query = new URLSearchParams({ from, to, format: 'md' });
  return withBasePath(`/api/v1/schedulers/${encodeURIComponent(name)}/incident?${query.toString()}`);
}

export const TimelineSection = memo(function TimelineSection({ answer, error }: { answer: HistoryAnswer | undefined; error: Error | null }) {
  const [ref, near] = useNearViewport();
  const history = answer?.kind === 'history' ? answer.history : undefined;
  const registered = history ? registrationInWindow(history) : null;
  return (
    <section className="panel" aria-labelledby="timeline-heading" ref={ref} data-testid="timeline-section">
      <h2 id="timeline-heading">Timeline</h2>
      {answer?.kind === 'outside_retention' ? (
        <NotKept what="The history of this window" retention={answer.retention} testId="history-not-kept" />
      ) : history && near ? (
        <TimelineChart history={history} />
      ) : (
        <div className="timeline-placeholder" data-testid="timeline-unavailable">
          <p className="muted">{error ? `History unavailable: ${error.message}` : 'Loading the last hour…'}</p>
        </div>
      )}
      {registered ? (
        <p className="small muted" data-testid="registered-at">
          Registered at <Instant iso={registered} />: nothing is drawn before it.
        </p>
      ) : null}
      {history ? <AlertSpans history={history} /> : null}
      {history ? (
        <p className="small">
          <a href={incidentHref(history.name, history.from, history.to)} download data-testid="incident-export">
            Export incident (Markdown)
          </a>{' '}
          <span className="muted">of this window: holders, lapses, health, refused writes, operator actions and alerts, each linked to its moment.</span>
        </p>
      ) : null}
    </section>
  );
});
