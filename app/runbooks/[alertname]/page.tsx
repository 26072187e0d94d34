/** /runbooks/{alertname}: one rule's runbook (docs/runbooks), linked from every alert's runbook_url. */
import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { Runbook } from '@/components/runbook';
import { readRunbook } from '@/lib/server';

interface Props {
  params: Promise<{ alertname: string }>;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { alertname } = await params;
  return { title: `Runbook: ${alertname} · Leaseboard` };
}

export default async function RunbookPage({ params }: Props) {
  const { alertname } = await params;
  const runbook = await readRunbook(alertname);
  if (runbook === null) notFound();
  return (
    <>
      <nav className="breadcrumbs small" aria-label="Breadcrumb">
        <Link href="/alerts">Alerts</Link>
      </nav>
      <Runbook markdown={runbook.markdown} />
    </>
  );
}
