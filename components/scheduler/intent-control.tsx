'use client';
/**
 * Disable or enable one scheduler — the operator's explicit choice, which
 * automation never overturns. Offered to operators only; asks for a reason
 * and a confirmation; sends the state the operator saw, so a change made
 * meanwhile by someone else is refused rather than overwritten. Shows the
 * result only once the server confirmed it, then refreshes the status.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { type FormEvent, useRef, useState } from 'react';
import type { IntentResponse } from '@/lib/api/types';
import { REASON_MAX_LENGTH } from '@/lib/api/limits';
import type { SchedulerStatus } from '@/lib/status/types';
import { postIntent } from '@/lib/client/api';
import { formatUtc } from '@/lib/client/format';
import { queryKeys, sessionQuery } from '@/lib/client/queries';

export function IntentControl({ name, intent }: { name: string; intent: SchedulerStatus['intent'] }) {
  const queryClient = useQueryClient();
  const session = useQuery(sessionQuery());
  const dialog = useRef<HTMLDialogElement>(null);
  const [reason, setReason] = useState('');
  const [confirmed, setConfirmed] = useState<IntentResponse | null>(null);
  const disabled = intent?.disabled ?? false;
  const mutation = useMutation({
    mutationFn: () => postIntent(name, { disabled: !disabled, reason, expectDisabled: disabled }),
    onSuccess: (answer) => {
      setConfirmed(answer);
      setReason('');
      dialog.current?.close();
    },
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.audit(name) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.audit(null) }),
      ]),
  });
  const role = session.data?.body.role;
  const verb = disabled ? 'Enable' : 'Disable';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    mutation.mutate();
  };

  return (
    <section className="panel intent-control" aria-labelledby="intent-heading" data-testid="intent-control">
      <h2 id="intent-heading">Operator intent</h2>
      <p data-testid="intent-state">
        {disabled && intent ? (
          <>
            <strong>Disabled</strong> by {intent.by} at {formatUtc(intent.at)}: {intent.reason}. The holder finishes its occurrence, then releases; nobody
            acquires until an operator enables it.
          </>
        ) : (
          <>Enabled: holders acquire and run it as scheduled.</>
        )}
      </p>
      {confirmed ? (
        <p className="banner tone-good" role="status" data-testid="intent-confirmed">
          Confirmed by the server: {confirmed.scheduler} {confirmed.from} → {confirmed.to} by {confirmed.intent.by} at {formatUtc(confirmed.intent.at)}.
        </p>
      ) : null}
      {role === 'operator' ? (
        <button type="button" onClick={() => (mutation.reset(), dialog.current?.showModal())} data-testid="intent-open">
          {verb} {name}…
        </button>
      ) : role === 'viewer' ? (
        <p className="muted small" data-testid="intent-viewer-note">
          Only operators can disable or enable a scheduler.{' '}
          {session.data?.body.localSignIn ? <Link href={`/login?next=${encodeURIComponent(`/schedulers/${encodeURIComponent(name)}`)}`}>Sign in</Link> : null}
        </p>
      ) : null}
      <dialog ref={dialog} className="confirm-dialog" aria-labelledby="intent-dialog-title" data-testid="intent-dialog">
        <form onSubmit={submit} className="form">
          <h3 id="intent-dialog-title">
            {verb} {name}?
          </h3>
          <p className="small">
            {disabled
              ? 'Holders will acquire the lease and run it again.'
              : 'The holder finishes the occurrence in flight, then releases the lease; nobody acquires it until an operator enables it again.'}
          </p>
          <label>
            Reason (recorded in the audit trail)
            <textarea value={reason} onChange={(e) => setReason(e.target.value)} required maxLength={REASON_MAX_LENGTH} rows={3} data-testid="intent-reason" />
          </label>
          {mutation.error ? (
            <p className="banner tone-bad" role="alert" data-testid="intent-error">
              {mutation.error.message}
            </p>
          ) : null}
          <div className="dialog-buttons">
            <button type="button" onClick={() => dialog.current?.close()} disabled={mutation.isPending}>
              Cancel
            </button>
            <button type="submit" className="danger" disabled={mutation.isPending || reason.trim() === ''} data-testid="intent-confirm">
              {mutation.isPending ? 'Waiting for the server…' : `${verb} ${name}`}
            </button>
          </div>
        </form>
      </dialog>
    </section>
  );
}
