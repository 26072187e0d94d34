'use client';
/**
 * Exchange the local operator token (printed once by `npm run demo`) for a
 * session cookie. The token is sent once and never stored by the page. Then
 * back to `next`, if it is a path of this dashboard (lib/client/next-path.ts).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { type FormEvent, useState } from 'react';
import { OPERATOR_NAME_MAX_LENGTH } from '@/lib/limits';
import { signIn } from '@/lib/client/api';
import { safeNextPath } from '@/lib/client/next-path';
import { queryKeys } from '@/lib/client/queries';

export function SignInForm({ next }: { next: string | null }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [token, setToken] = useState('');
  const [name, setName] = useState('');
  const mutation = useMutation({
    mutationFn: signIn,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.session });
      router.push(safeNextPath(next, window.location.origin));
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    mutation.mutate({ token, name });
  };
  return (
    <form className="panel form" onSubmit={submit} data-testid="sign-in-form" data-next={next ?? '/'}>
      <label>
        Your name (recorded with every action you take)
        <input
          value={name}
          onChange={(e) => setName(e.target.value)}
          required
          maxLength={OPERATOR_NAME_MAX_LENGTH}
          autoComplete="username"
          data-testid="sign-in-name"
        />
      </label>
      <label>
        Operator token
        <input type="password" value={token} onChange={(e) => setToken(e.target.value)} required autoComplete="current-password" data-testid="sign-in-token" />
      </label>
      {mutation.error ? (
        <p className="banner tone-bad" role="alert">
          {mutation.error.message}
        </p>
      ) : null}
      <button type="submit" disabled={mutation.isPending} data-testid="sign-in-submit">
        {mutation.isPending ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}
