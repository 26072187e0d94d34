'use client';
/**
 * "Run now": an operator asks the current holder to start an occurrence now,
 * with a reason. Offered to operators only; the server says whether anyone
 * holds the lease (nothing is queued for a holder to come) and until when the
 * request waits; its fate (taken, or expired) is in the audit trail below.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { memo, useRef, useState } from 'react';
import type { RunNowResponse } from '@/lib/api/types';
import { postRunNow } from '@/lib/client/api';
import { queryKeys, sessionQuery } from '@/lib/client/queries';
import { ReasonDialog } from '../reason-dialog';
import { Instant } from '@/components/instant';

export const RunNowControl = memo(function RunNowControl({ name, disabled }: { name: string; disabled: boolean }) {
  const queryClient = useQueryClient();
  const session = useQuery(sessionQuery());
  const dialog = useRef<HTMLDialogElement>(null);
  const [reason, setReason] = useState('');
  const [asked, setAsked] = useState<RunNowResponse | null>(null);
  const mutation = useMutation({
    mutationFn: () => postRunNow(name, reason),
    onSuccess: (answer) => {
      setAsked(answer);
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
  if (role !== 'operator' && role !== 'admin') return null;
  return (
    <section className="panel" aria-labelledby="run-now-heading" data-testid="run-now-control">
      <h2 id="run-now-heading">Run now</h2>
      {asked ? (
        <p className="banner tone-good" role="status" data-testid="run-now-asked">
          Asked {asked.request.holder} (epoch {asked.request.epoch}) at <Instant iso={asked.request.requestedAt} />; it starts at its next poll, or the request
          expires at <Instant iso={asked.request.expiresAt} />.
        </p>
      ) : null}
      <button type="button" disabled={disabled} onClick={() => (mutation.reset(), dialog.current?.showModal())} data-testid="run-now-open">
        Run {name} now…
      </button>
      {disabled ? <span className="muted small"> Disabled: enable it first.</span> : null}
      <ReasonDialog
        dialogRef={dialog}
        testIdPrefix="run-now"
        title={`Run ${name} now?`}
        reason={reason}
        onReasonChange={setReason}
        pending={mutation.isPending}
        error={mutation.error}
        confirmLabel={`Run ${name} now`}
        onConfirm={() => mutation.mutate()}
      >
        <p className="small">The current holder starts an occurrence under its lease, fenced like any other. If nobody holds the lease, nothing is queued.</p>
      </ReasonDialog>
    </section>
  );
});
