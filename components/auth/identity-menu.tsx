'use client';
/**
 * Who you are here, in the site header: a read-only viewer (with a way to
 * sign in when local or OpenID Connect sign-in is on), an operator or an
 * admin. It only decides which actions are OFFERED; the server decides what
 * is allowed. Signing out of an OpenID Connect session goes on to the
 * provider's end-session page when the provider has one.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { signOut } from '@/lib/client/api';
import { withBasePath } from '@/lib/client/base-path';
import { queryKeys, sessionQuery } from '@/lib/client/queries';
import { useAfterMount } from '@/lib/client/mounted-later';

const ROLE_LABEL = { operator: 'Operator', admin: 'Admin' } as const;

export function IdentityMenu() {
  const queryClient = useQueryClient();
  const pathname = usePathname();
  const session = useQuery({ ...sessionQuery(), enabled: useAfterMount() });
  const out = useMutation({
    mutationFn: signOut,
    onSuccess: (answer) => {
      if (answer.providerSignOut) window.location.assign(answer.providerSignOut);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.session }),
  });
  const body = session.data?.body;
  if (!body) return <span className="identity muted small" aria-hidden="true" />;
  const signOutButton =
    body.via === 'session' || body.via === 'oidc' ? (
      <button type="button" className="link-button" onClick={() => out.mutate()} disabled={out.isPending} data-testid="sign-out">
        Sign out
      </button>
    ) : null;
  if (body.role !== 'viewer') {
    return (
      <span className="identity small" data-testid="identity" data-role={body.role}>
        {ROLE_LABEL[body.role]} <strong>{body.who}</strong>
        {body.role === 'admin' ? (
          <Link href="/tokens" prefetch={false} data-testid="tokens-link">
            Tokens
          </Link>
        ) : null}
        {signOutButton}
      </span>
    );
  }
  return (
    <span className="identity small" data-testid="identity" data-role="viewer">
      {body.who ? <>{body.who} · </> : null}Viewer (read-only)
      {signOutButton}
      {body.via === 'anonymous' && body.oidcSignIn ? (
        <a href={withBasePath(`/api/v1/session/oidc/login?next=${encodeURIComponent(pathname)}`)} data-testid="oidc-sign-in-link">
          Sign in
        </a>
      ) : null}
      {body.localSignIn ? (
        <Link href={`/login?next=${encodeURIComponent(pathname)}`} prefetch={false} data-testid="sign-in-link">
          Sign in as operator
        </Link>
      ) : null}
    </span>
  );
}
