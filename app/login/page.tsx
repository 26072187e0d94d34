/** Sign in: with OpenID Connect when it is configured, and with the local operator token (local and demo mode). */
import type { Metadata } from 'next';
import { SignInForm } from '@/components/auth/sign-in-form';
import { actionDeps } from '@/lib/actions/instance';
import { signInChoices } from '@/lib/actions/oidc-routes';
import { nextPathOnServer } from '@/lib/client/next-path';

export const metadata: Metadata = { title: 'Sign in · Leaseboard' };
export const dynamic = 'force-dynamic';

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const raw = (await searchParams).next;
  // Resolved here by the same rule the browser applies again (lib/client/next-path.ts): the page carries only a
  // path of this dashboard, which `npm run attack` reads back from the HTML.
  const next = nextPathOnServer(Array.isArray(raw) ? (raw[0] ?? null) : (raw ?? null));
  const choices = signInChoices(actionDeps(), next);
  return (
    <>
      <h1 className="page-title">Sign in</h1>
      <p className="muted">
        Operators can disable and enable schedulers and set alert modes; every action is audited.
        {choices.anonymousReads ? ' Without signing in you can read everything.' : ' This dashboard shows nothing until you sign in.'}
      </p>
      {choices.oidcUrl !== null ? (
        <p>
          <a className="button" href={choices.oidcUrl} data-testid="oidc-sign-in">
            Sign in with single sign-on
          </a>
        </p>
      ) : null}
      {choices.token || choices.oidcUrl === null ? <SignInForm next={next} /> : null}
    </>
  );
}
