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
import { memo, useRef, useState } from 'react';
import type { IntentResponse } from '@/lib/api/types';
import type { SchedulerStatus } from '@/lib/status/types';
import { postIntent } from '@/lib/client/api';
import { queryKeys, sessionQuery } from '@/lib/client/queries';
import { ReasonDialog } from '../reason-dialog';
import { Instant } from '@/components/instant';

export const IntentControl = memo(function IntentControl({ name, intent }: { name: string; intent: SchedulerStatus['intent'] }) {
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

  return (
    <section className="panel intent-control" aria-labelledby="intent-heading" data-testid="intent-control">
      <h2 id="intent-heading">Operator intent</h2>
      <p data-testid="intent-state">
        {disabled && intent ? (
          <>
            <strong>Disabled</strong> by {intent.by} at <Instant iso={intent.at} />: {intent.reason}. The holder finishes its occurrence, then releases; nobody
            acquires until an operator enables it.
          </>
        ) : (
          <>Enabled: holders acquire and run it as scheduled.</>
        )}
      </p>
      {confirmed ? (
        <p className="banner tone-good" role="status" data-testid="intent-confirmed">
          Confirmed by the server: {confirmed.scheduler} {confirmed.from} → {confirmed.to} by {confirmed.intent.by} at <Instant iso={confirmed.intent.at} />.
        </p>
      ) : null}
      {role === 'operator' || role === 'admin' ? (
        <button type="button" onClick={() => (mutation.reset(), dialog.current?.showModal())} data-testid="intent-open">
          {verb} {name}…
        </button>
      ) : role === 'viewer' ? (
        <p className="muted small" data-testid="intent-viewer-note">
          Only operators can disable or enable a scheduler.{' '}
          {session.data?.body.localSignIn ? <Link href={`/login?next=${encodeURIComponent(`/schedulers/${encodeURIComponent(name)}`)}`}>Sign in</Link> : null}
        </p>
      ) : null}
      <ReasonDialog
        dialogRef={dialog}
        testIdPrefix="intent"
        title={`${verb} ${name}?`}
        reason={reason}
        onReasonChange={setReason}
        pending={mutation.isPending}
        error={mutation.error}
        confirmLabel={`${verb} ${name}`}
        onConfirm={() => mutation.mutate()}
      >
        <p className="small">
          {disabled
            ? 'Holders will acquire the lease and run it again.'
            : 'The holder finishes the occurrence in flight, then releases the lease; nobody acquires it until an operator enables it again.'}
        </p>
      </ReasonDialog>
    </section>
  );
});
