/** The next hour: what starts in the coming hour, fleet-wide or for a label selector, soonest first. */
import type { Metadata } from 'next';
import { Suspense } from 'react';
import { UpcomingRuns } from '@/components/upcoming/upcoming-runs';

export const metadata: Metadata = { title: 'Next hour · Leaseboard' };

export default function UpcomingPage() {
  return (
    <section className="panel" aria-labelledby="upcoming-heading">
      <h1 id="upcoming-heading" className="page-title">
        Next hour
      </h1>
      <p className="muted small">
        Each scheduler&apos;s next occurrence that starts within the hour, on the database&apos;s clock: its slot, or due now when the current slot has not
        started (a run in progress is in the scheduler&apos;s Runs). A scheduler runs every occurrence of its cadence; this lists the next one. Nothing starts
        for a disabled scheduler, and a slot nobody holds waits for its next holder.
      </p>
      <Suspense fallback={<p className="muted">Reading…</p>}>
        <UpcomingRuns />
      </Suspense>
    </section>
  );
}
