/** Service tokens: an admin's page for the tokens scripts and configuration-as-code act with. */
import type { Metadata } from 'next';
import { ServiceTokens } from '@/components/tokens/service-tokens';

export const metadata: Metadata = { title: 'Service tokens · Leaseboard' };

export default function TokensPage() {
  return (
    <section className="panel" aria-labelledby="tokens-heading">
      <h1 id="tokens-heading" className="page-title">
        Service tokens
      </h1>
      <p className="muted small">
        Named tokens for scripts, each with its scopes (read, intents, maintenance, reports) over a label selector or a list of schedulers. Every use is
        attributed to the token&apos;s name in the audit trail; <code>leaseboard tokens</code> does the same from a shell.
      </p>
      <ServiceTokens />
    </section>
  );
}
