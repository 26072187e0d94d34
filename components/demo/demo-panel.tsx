'use client';
/**
 * Demo controls: real faults on the demo's scheduler processes (freeze
 * progress, drop reports, OS pause, pause mid-write, kill/restart). Rendered
 * only when the demo supervisor answers GET /api/demo/processes with 200 —
 * absent outside demo mode. Each drill is an operator action like the others:
 * it asks for a reason (the shared reason dialog) and is audited — who, which
 * drill on which process, from → to, why, when — on this page's "Operator
 * actions" and the Audit page.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { memo, useRef, useState } from 'react';
import type { DrillAction, DemoProcess } from '@/lib/api/types';
import { postDemoAction } from '@/lib/client/api';
import { describeDemoProcess } from '@/lib/client/demo-process';
import { demoProcessesQuery, queryKeys, sessionQuery } from '@/lib/client/queries';
import { ReasonDialog } from '../reason-dialog';
import { useAfterMount } from '@/lib/client/mounted-later';

interface Control {
  action: DrillAction;
  label: string;
}

/** The toggles that make sense for a process in its current state. */
function controlsFor(process: DemoProcess): Control[] {
  if (process.state === 'exited') return [{ action: 'restart', label: 'Restart' }];
  if (process.state === 'starting') return [{ action: 'kill', label: 'Kill' }];
  return [
    process.frozen ? { action: 'unfreeze', label: 'Unfreeze progress' } : { action: 'freeze', label: 'Freeze progress' },
    process.droppingReports ? { action: 'resume-reports', label: 'Resume reports' } : { action: 'drop-reports', label: 'Drop reports' },
    process.state === 'paused' ? { action: 'resume', label: 'Resume (SIGCONT)' } : { action: 'pause', label: 'Pause (SIGSTOP)' },
    // Stops at its next fenced write, fence in hand, past its ttl; the write it then sends is refused.
    ...(process.pausingMidWrite ? [] : [{ action: 'pause-mid-write' as const, label: 'Pause mid-write' }]),
    { action: 'stop', label: 'Stop (release)' },
    { action: 'kill', label: 'Kill' },
  ];
}

export const DemoPanel = memo(function DemoPanel({ lease }: { lease: string | null }) {
  const queryClient = useQueryClient();
  // Both start a task after hydration, as the header's do (lib/client/mounted-later.ts `useAfterMount`).
  const afterMount = useAfterMount();
  const query = useQuery({ ...demoProcessesQuery(), enabled: afterMount });
  const role = useQuery({ ...sessionQuery(), enabled: afterMount }).data?.body.role;
  const operator = role === 'operator' || role === 'admin';
  const dialog = useRef<HTMLDialogElement>(null);
  const [chosen, setChosen] = useState<{ process: DemoProcess; control: Control } | null>(null);
  const [reason, setReason] = useState('');
  const mutation = useMutation({
    mutationFn: ({ id, action }: { id: string; action: DrillAction }) => postDemoAction(id, action, { reason }),
    onSuccess: () => {
      setReason('');
      dialog.current?.close();
    },
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.demo }),
        queryClient.invalidateQueries({ queryKey: queryKeys.audit(lease) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.audit(null) }),
      ]),
  });
  const choose = (process: DemoProcess, control: Control) => {
    mutation.reset();
    setChosen({ process, control });
    dialog.current?.showModal();
  };
  if (query.status !== 'success') return null;
  const processes = query.data.body.processes.filter((p) => lease === null || p.lease === lease);
  if (processes.length === 0) return null;
  return (
    <section className="panel demo-panel" aria-labelledby="demo-heading" data-testid="demo-panel">
      <h2 id="demo-heading">Demo faults</h2>
      <p className="muted small">Real signals to the demo&apos;s scheduler processes. The status above must tell the truth about each.</p>
      {operator ? null : (
        <p className="muted small" data-testid="demo-operator-note">
          The fault buttons are operator actions: sign in with the operator token the demo printed.
        </p>
      )}
      <ul className="demo-list">
        {processes.map((process) => (
          <li key={process.id} className="demo-process" data-testid="demo-process" data-process-id={process.id}>
            <div className="stack">
              <strong>
                {process.label} <span className="muted small">({process.lease})</span>
              </strong>
              <span className="small">
                <code>{process.token ?? 'no token yet'}</code> · <span data-testid="demo-process-state">{describeDemoProcess(process)}</span>
              </span>
            </div>
            <div className="demo-buttons">
              {controlsFor(process).map((control) => (
                <button
                  key={control.action}
                  type="button"
                  disabled={mutation.isPending || !operator}
                  onClick={() => choose(process, control)}
                  data-testid={`demo-${control.action}`}
                >
                  {control.label}
                </button>
              ))}
            </div>
          </li>
        ))}
      </ul>
      <ReasonDialog
        dialogRef={dialog}
        testIdPrefix="demo-fault"
        title={chosen ? `${chosen.control.label}: ${chosen.process.label} (${chosen.process.lease})?` : 'Fault drill'}
        reason={reason}
        onReasonChange={setReason}
        pending={mutation.isPending}
        error={mutation.error}
        confirmLabel={chosen ? chosen.control.label : 'Apply'}
        canConfirm={chosen !== null}
        onConfirm={() => chosen && mutation.mutate({ id: chosen.process.id, action: chosen.control.action })}
      >
        <p className="small">A real fault on a real process{chosen?.process.token ? ` (${chosen.process.token})` : ''}. It is audited with your reason.</p>
      </ReasonDialog>
    </section>
  );
});
