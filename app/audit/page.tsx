/** The audit trail of every operator action. */
import type { Metadata } from 'next';
import { AuditTable } from '@/components/audit/audit-table';

export const metadata: Metadata = { title: 'Audit · Leaseboard' };

export default function AuditPage() {
  return (
    <section className="panel" aria-labelledby="audit-heading">
      <h1 id="audit-heading" className="page-title">
        Audit
      </h1>
      <p className="muted small">Every operator action — who, what, from → to, why and when. Kept forever; automation never writes here.</p>
      <AuditTable scheduler={null} headingId="audit-heading" />
    </section>
  );
}
