'use client';
/**
 * The confirmation every operator action goes through: a modal dialog with
 * the action's own text and fields, a required reason (recorded in the audit
 * trail, capped at the server's limit), the server's refusal shown in place,
 * and Cancel beside one confirm button that stays disabled while the request
 * is in flight or the reason is empty. The caller owns the request and the
 * reason's state; this owns the form. Test ids: `{testIdPrefix}-dialog`,
 * `-reason`, `-error`, `-confirm`.
 */
import { type FormEvent, type ReactNode, type RefObject, useId } from 'react';
import { REASON_MAX_LENGTH } from '@/lib/limits';

export interface ReasonDialogProps {
  dialogRef: RefObject<HTMLDialogElement | null>;
  testIdPrefix: string;
  title: ReactNode;
  /** What the action does, and any fields of its own. */
  children: ReactNode;
  reason: string;
  onReasonChange: (reason: string) => void;
  pending: boolean;
  error: Error | null;
  confirmLabel: string;
  /** Further conditions for confirming, beyond a non-empty reason and no request in flight. */
  canConfirm?: boolean;
  onConfirm: () => void;
}

export function ReasonDialog(props: ReasonDialogProps) {
  const { dialogRef, testIdPrefix: id, pending, error } = props;
  const titleId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    props.onConfirm();
  };
  return (
    <dialog ref={dialogRef} className="confirm-dialog" aria-labelledby={titleId} data-testid={`${id}-dialog`}>
      <form onSubmit={submit} className="form">
        <h3 id={titleId}>{props.title}</h3>
        {props.children}
        <label>
          Reason (recorded in the audit trail)
          <textarea
            value={props.reason}
            onChange={(e) => props.onReasonChange(e.target.value)}
            required
            maxLength={REASON_MAX_LENGTH}
            rows={3}
            data-testid={`${id}-reason`}
          />
        </label>
        {error ? (
          <p className="banner tone-bad" role="alert" data-testid={`${id}-error`}>
            {error.message}
          </p>
        ) : null}
        <div className="dialog-buttons">
          <button type="button" onClick={() => dialogRef.current?.close()} disabled={pending}>
            Cancel
          </button>
          <button type="submit" className="danger" disabled={pending || props.reason.trim() === '' || props.canConfirm === false} data-testid={`${id}-confirm`}>
            {pending ? 'Waiting for the server…' : props.confirmLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}
