'use client';
/**
 * Change one alert rule's mode — for the rule as a whole, or for one
 * scheduler (an override). Offered to operators only; asks for the new mode
 * and a reason; sends the mode the operator saw, so a change made meanwhile
 * is refused rather than overwritten. Shows the change only once the server
 * confirmed it, then refreshes what depends on it.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import type { AlertModeName, AlertModeResponse, AlertRuleName } from '@/lib/api/types';
import { MODE_TEXT } from '@/lib/client/alerts-display';
import { putAlertMode } from '@/lib/client/api';
import { queryKeys, sessionQuery } from '@/lib/client/queries';
import { ReasonDialog } from '../reason-dialog';
import { Instant } from '@/components/instant';

const MODES: AlertModeName[] = ['on', 'shadow', 'off'];

export function ModeControl({ rule, scheduler, current }: { rule: AlertRuleName; scheduler: string | null; current: AlertModeName }) {
  const queryClient = useQueryClient();
  const session = useQuery(sessionQuery());
  const dialog = useRef<HTMLDialogElement>(null);
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
  const role = session.data?.body.role;
  if (role !== 'operator' && role !== 'admin') return null;
  return (
    <span className="mode-control" data-testid="mode-control" data-rule={rule}>
      <button type="button" className="small-button" onClick={() => (mutation.reset(), dialog.current?.showModal())} data-testid="mode-open">
        Change mode…
      </button>
      {confirmed ? (
        <span className="banner tone-good small" role="status" data-testid="mode-confirmed">
          Confirmed by the server: {target} {confirmed.from.setting ?? `${confirmed.from.effective} (inherited)`} → {confirmed.to} by {confirmed.setting.by} at{' '}
          <Instant iso={confirmed.setting.at} />.
        </span>
      ) : null}
      <ReasonDialog
        dialogRef={dialog}
        testIdPrefix="mode"
        title={`Mode of ${target}`}
        reason={reason}
        onReasonChange={setReason}
        pending={mutation.isPending}
        error={mutation.error}
        confirmLabel={`Set ${mode}`}
        canConfirm={mode !== current}
        onConfirm={() => mutation.mutate()}
      >
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
      </ReasonDialog>
    </span>
  );
}
