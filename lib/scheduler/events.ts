/**
 * What a scheduler tells its operator, one JSON line each. Display-safe by
 * construction: lease names, epochs, occurrence keys, counts and reasons —
 * never hostnames, PIDs (except the CLI's first `started` line, which the
 * supervisor needs to send signals), document IDs or connection strings.
 */
export type RuntimeEvent =
  | { event: 'registered'; lease: string }
  | { event: 'acquired'; lease: string; epoch: number; adopted: boolean }
  | { event: 'held'; lease: string; holder: string; epoch: number }
  | { event: 'disabled'; lease: string; by: string; reason: string }
  | { event: 'acquire_unknown'; lease: string }
  | { event: 'renew_unknown'; lease: string; epoch: number }
  | { event: 'lost'; lease: string; epoch: number; why: 'renewal_refused' | 'self_suspected' }
  | { event: 'occurrence_started'; occurrence: string; epoch: number; resumed: boolean; step: string; cursor: number }
  | { event: 'step_started'; occurrence: string; epoch: number; step: string }
  | { event: 'occurrence_completed'; occurrence: string; epoch: number }
  | { event: 'occurrence_failed'; occurrence: string; epoch: number; exitCode: number }
  | { event: 'write_rejected'; epoch: number; reason: string; currentEpoch: number | null; resource: string }
  /** A fenced write that never reached a server (no connection, or one closed before its session began): nothing written. */
  | { event: 'write_not_sent'; epoch: number }
  /** A fenced write sent whose answer never came (connection lost mid-statement, a deadline): it may have committed. */
  | { event: 'write_outcome_unknown'; epoch: number }
  | { event: 'call_accepted'; epoch: number; target: string; step: string }
  | { event: 'fault_armed'; fault: 'pause_before'; action: SideEffect }
  /** The fault drill "pause mid-write": the fence is captured, the write not sent; the process stops itself now (SIGSTOP). */
  | { event: 'paused_mid_write'; epoch: number; action: SideEffect; step: string }
  | { event: 'frozen'; on: boolean }
  | { event: 'dropping_reports'; on: boolean }
  | { event: 'draining'; lease: string; epoch: number; by: string; reason: string }
  /** An operator's "run now" request taken: its occurrence is claimed under this epoch. */
  | { event: 'run_now_taken'; occurrence: string; epoch: number }
  | { event: 'released'; lease: string; epoch: number }
  | { event: 'error'; where: string; message: string }
  | { event: 'stopped'; lease: string; writes: WriteStats };

/** The two kinds of fenced side effect: a database write, an external call. */
export type SideEffect = 'write' | 'call';

/** A runtime's fenced side effects, counted by the rule in ./tenure-state.ts (one attempt per fenced statement or external call sent). */
export interface WriteStats {
  attempted: number;
  accepted: number;
  rejected: number;
  /** Sent, and no answer came: attempted, neither accepted nor refused. */
  unknown: number;
  /** Fenced writes that never reached a server: not attempted. */
  notSent: number;
}

export type EventSink = (event: RuntimeEvent) => void;

/** Error text for events: the message only (causes may carry connection details). */
export function safeMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/postgres(ql)?:\/\/\S+/g, '[database url]').slice(0, 200);
}
