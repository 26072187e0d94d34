/** Reliability: the share of time each scheduler spent in each health over 24 h, 7 d or 30 d. */
import type { Metadata } from 'next';
import { Suspense } from 'react';
import { ReliabilityReport } from '@/components/reliability/reliability-report';

export const metadata: Metadata = { title: 'Reliability · Leaseboard' };

export default function ReliabilityPage() {
  return (
    <section className="panel" aria-labelledby="reliability-heading">
      <h1 id="reliability-heading" className="page-title">
        Reliability
      </h1>
      <p className="muted small">
        Share of time in each health, from the health rollup. Time nobody observed is unknown, never up; a scheduler counts from its first registration. 7d and
        30d are whole UTC days and today so far.
      </p>
      <Suspense fallback={<p className="muted">Reading…</p>}>
        <ReliabilityReport />
      </Suspense>
    </section>
  );
}
