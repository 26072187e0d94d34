'use client';
/**
 * Change one alert rule's mode — for the rule as a whole, or for one
 * scheduler (an override). Offered to operators only; asks for the new mode
 * and a reason; sends the mode the operator saw, so a change made meanwhile
 * is refused rather than overwritten. Shows the change only once the server
 * confirmed it, then refreshes what depends on it.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useRef, useState } from 'react';
import { REASON_MAX_LENGTH } from '@/lib/api/limits';
import type { AlertModeName, AlertModeResponse, AlertRuleName } from '@/lib/api/types';
import { MODE_TEXT } from '@/lib/client/alerts-display';
import { putAlertMode } from '@/lib/client/api';
import { formatUtc } from '@/lib/client/format';
import { queryKeys, sessionQuery } from '@/lib/client/queries';

const MODES: AlertModeName[] = ['on', 'shadow', 'off'];

export function ModeControl({ rule, scheduler, current }: { rule: AlertRuleName; scheduler: string | null; current: AlertModeName }) {
  const queryClient = useQueryClient();
  const session = useQuery(sessionQuery());
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [mode, setMode] = useState<AlertModeName>(current === 'on' ? 'shadow' : 'on');
  const [reason, setReason] = useState('');
  const [confirmed, setConfirmed] = useState<AlertModeResponse | null>(null);
  const target = scheduler === null ? rule : `${rule} on ${scheduler}`;
  const mutation = useMutation({
    mutationFn: () => putAlertMode(rule, { mode, reason, scheduler, expectMode: current }),
    onSuccess: (answer) => {
      setConfirmed(answer);
      setReason('');
      dialog.current?.close();
    },
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.alerts }),
        queryClient.invalidateQueries({ queryKey: queryKeys.all }),
        queryClient.invalidateQueries({ queryKey: ['audit'] }),
      ]),
  });
  if (session.data?.body.role !== 'operator') return null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    mutation.mutate();
  };
  return (
    <span className="mode-control" data-testid="mode-control" data-rule={rule}>
      <button type="button" className="small-button" onClick={() => (mutation.reset(), dialog.current?.showModal())} data-testid="mode-open">
        Change mode…
      </button>
      {confirmed ? (
        <span className="banner tone-good small" role="status" data-testid="mode-confirmed">
          Confirmed by the server: {target} {confirmed.from.setting ?? `${confirmed.from.effective} (inherited)`} → {confirmed.to} by {confirmed.setting.by} at{' '}
          {formatUtc(confirmed.setting.at)}.
        </span>
      ) : null}
      <dialog ref={dialog} className="confirm-dialog" aria-labelledby={titleId} data-testid="mode-dialog">
        <form onSubmit={submit} className="form">
          <h3 id={titleId}>Mode of {target}</h3>
          <p className="small">
            Now <strong>{current}</strong>. {scheduler === null ? 'Applies to every scheduler without its own setting.' : 'Applies to this scheduler only.'}{' '}
            Leaving <em>on</em> withdraws what Alertmanager holds of it.
          </p>
          <fieldset>
            <legend>New mode</legend>
            {MODES.map((m) => (
              <label key={m} className="radio">
                <input type="radio" name="mode" value={m} checked={mode === m} onChange={() => setMode(m)} data-testid={`mode-${m}`} /> {MODE_TEXT[m]}
              </label>
            ))}
          </fieldset>
          <label>
            Reason (recorded in the audit trail)
            <textarea value={reason} onChange={(e) => setReason(e.target.value)} required maxLength={REASON_MAX_LENGTH} rows={3} data-testid="mode-reason" />
          </label>
          {mutation.error ? (
            <p className="banner tone-bad" role="alert" data-testid="mode-error">
              {mutation.error.message}
            </p>
          ) : null}
          <div className="dialog-buttons">
            <button type="button" onClick={() => dialog.current?.close()} disabled={mutation.isPending}>
              Cancel
            </button>
            <button type="submit" className="danger" disabled={mutation.isPending || reason.trim() === '' || mode === current} data-testid="mode-confirm">
              {mutation.isPending ? 'Waiting for the server…' : `Set ${mode}`}
            </button>
          </div>
        </form>
      </dialog>
    </span>
  );
}
