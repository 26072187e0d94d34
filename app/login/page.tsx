/** Sign in with the local operator token (local and demo mode). */
import type { Metadata } from 'next';
import { SignInForm } from '@/components/auth/sign-in-form';
import { nextPathOnServer } from '@/lib/client/next-path';

export const metadata: Metadata = { title: 'Sign in · Leaseboard' };

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const raw = (await searchParams).next;
  // Resolved here by the same rule the browser applies again (lib/client/next-path.ts): the page carries only a
  // path of this dashboard, which `npm run attack` reads back from the HTML.
  const next = nextPathOnServer(Array.isArray(raw) ? (raw[0] ?? null) : (raw ?? null));
  return (
    <>
      <h1 className="page-title">Sign in as operator</h1>
      <p className="muted">
        Operators can disable and enable schedulers and set alert modes; every action is audited. Without signing in you can read everything.
      </p>
      <SignInForm next={next} />
    </>
  );
}
