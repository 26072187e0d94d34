'use client';
/**
 * Who you are here, in the site header: a read-only viewer (with a way to
 * sign in when local sign-in is on) or an operator. It only decides which
 * actions are OFFERED; the server decides what is allowed.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { signOut } from '@/lib/client/api';
import { queryKeys, sessionQuery } from '@/lib/client/queries';
import { useAfterMount } from '@/lib/client/mounted-later';

export function IdentityMenu() {
  const queryClient = useQueryClient();
  const pathname = usePathname();
  const session = useQuery({ ...sessionQuery(), enabled: useAfterMount() });
  const out = useMutation({
    mutationFn: signOut,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.session }),
  });
  const body = session.data?.body;
  if (!body) return <span className="identity muted small" aria-hidden="true" />;
  if (body.role === 'operator') {
    return (
      <span className="identity small" data-testid="identity" data-role="operator">
        Operator <strong>{body.who}</strong>
        {body.via === 'session' ? (
          <button type="button" className="link-button" onClick={() => out.mutate()} disabled={out.isPending} data-testid="sign-out">
            Sign out
          </button>
        ) : null}
      </span>
    );
  }
  return (
    <span className="identity small" data-testid="identity" data-role="viewer">
      {body.who ? <>{body.who} · </> : null}Viewer (read-only)
      {body.localSignIn ? (
        <Link href={`/login?next=${encodeURIComponent(pathname)}`} prefetch={false} data-testid="sign-in-link">
          Sign in as operator
        </Link>
      ) : null}
    </span>
  );
}
