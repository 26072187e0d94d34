/**
 * One run of the exec runner's command: spawn it, feed its progress lines
 * (./progress.ts, fd 3) to the runtime, keep a bounded tail of its output
 * (./tail.ts), and stop it when the tenure ends.
 *
 * Guarantees
 * - The child is the leader of its own process group, and every signal goes
 *   to the whole group (a shell's `sleep` is stopped with the shell).
 * - When `signal` aborts (the tenure ended: renewal refused, self-suspicion,
 *   stop), the group gets SIGTERM at once and SIGKILL `graceMs` later if the
 *   child has not exited by then; after the child exits, SIGKILL goes to the
 *   group again, so nothing it started outlives the lease loss.
 * - The outcome is the child's: exit 0 `succeeded`; exit N `failed` with N;
 *   ended by a signal S that we did not send `failed` with 128 + S (the
 *   shell's convention); not startable `failed` with 127 (not found) or 126
 *   (not executable). Stopped by us: `stopped`, whatever it exited with.
 * - Its stdout and stderr go to `output` (the runner's stderr) as they come;
 *   stdin is /dev/null.
 * - When the runner's process exits however it exits (a shutdown deadline
 *   included), every command group still alive gets SIGKILL from its 'exit'
 *   handler: nothing is left running behind a runner that ended.
 * Not guaranteed: that the child dies if the runner itself is SIGKILLed (no
 * one is left to signal it): its fenced writes are refused once another
 * holder took over, which is what the fence is for.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import readline from 'node:readline';
import type { Readable } from 'node:stream';
import type { DelegatedOutcome } from '../../scheduler';
import { parseProgressLine, type ProgressLine } from './progress';
import { OutputTail } from './tail';

export interface ChildSpec {
  readonly command: string;
  readonly args: readonly string[];
  /** All of the child's environment (nothing of the runner's is added: ./environment.ts). */
  readonly env: Readonly<Record<string, string>>;
  readonly graceMs: number;
  readonly tailBytes: number;
}

export interface ChildHooks {
  readonly signal: AbortSignal;
  /** The child was spawned (before any of its output). */
  started(): void;
  progress(cursor: number): void;
  refused(why: Extract<ProgressLine, { kind: 'refused' }>['why']): void;
  stopping(): void;
  killed(): void;
  output(chunk: Buffer): void;
  /** The child exited: its code (or 128 + signal), and the tail when it failed. */
  exited(exit: { exitCode: number; signal: NodeJS.Signals | null; stoppedByUs: boolean; tail: string | null }): void;
}

/** Process groups of commands still running, killed if this process exits first. */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

function trackGroup(pid: number): void {
  liveGroups.add(pid);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const group of liveGroups) {
      try {
        process.kill(-group, 'SIGKILL');
      } catch {
        // gone already
      }
    }
  });
}

/** How long to wait for the child's pipes to drain after it exited (a grandchild may hold them open). */
const DRAIN_MS = 200;

export function runChild(spec: ChildSpec, hooks: ChildHooks): Promise<DelegatedOutcome> {
  return new Promise((resolve) => {
    const tail = new OutputTail(spec.tailBytes);
    const child = spawn(spec.command, [...spec.args], {
      env: { ...spec.env } as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
      detached: true,
    });
    let stoppedByUs = false;
    let killTimer: NodeJS.Timeout | null = null;
    let settled = false;
    const group = (signal: NodeJS.Signals) => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, signal);
      } catch {
        // ESRCH: the group is gone already.
      }
    };
    const stop = () => {
      if (settled || stoppedByUs) return;
      stoppedByUs = true;
      hooks.stopping();
      group('SIGTERM');
      killTimer = setTimeout(() => {
        hooks.killed();
        group('SIGKILL');
      }, spec.graceMs);
    };
    const settle = (outcome: DelegatedOutcome) => {
      if (settled) return;
      settled = true;
      hooks.signal.removeEventListener('abort', stop);
      if (killTimer) clearTimeout(killTimer);
      resolve(outcome);
    };

    for (const stream of [child.stdout, child.stderr]) {
      stream!.on('data', (chunk: Buffer) => {
        tail.push(chunk);
        hooks.output(chunk);
      });
    }
    const progress = child.stdio[3] as Readable;
    progress.on('error', () => {});
    readline.createInterface({ input: progress, crlfDelay: Infinity }).on('line', (line) => {
      if (settled) return;
      const parsed = parseProgressLine(line);
      if (parsed.kind === 'cursor') hooks.progress(parsed.cursor);
      else hooks.refused(parsed.why);
    });

    child.once('spawn', () => {
      trackGroup(child.pid!);
      hooks.started();
      if (hooks.signal.aborted) stop();
      else hooks.signal.addEventListener('abort', stop, { once: true });
    });
    child.once('error', (error: NodeJS.ErrnoException) => {
      if (child.pid !== undefined) return; // an error after spawning (a kill that failed): the exit still comes
      const exitCode = error.code === 'ENOENT' ? 127 : 126;
      hooks.exited({ exitCode, signal: null, stoppedByUs: false, tail: `${spec.command}: ${error.code ?? 'cannot start'}` });
      settle({ kind: 'failed', exitCode });
    });
    child.once('exit', (code, signal) => {
      if (stoppedByUs) group('SIGKILL'); // whatever it started goes with it
      if (child.pid !== undefined) liveGroups.delete(child.pid);
      const exitCode = code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0);
      let finished = false;
      const finish = () => {
        if (finished) return;
        finished = true;
        for (const stream of [child.stdout, child.stderr, progress]) stream?.destroy();
        const failed = exitCode !== 0 && !stoppedByUs;
        hooks.exited({ exitCode, signal, stoppedByUs, tail: failed ? tail.text() : null });
        settle(stoppedByUs ? { kind: 'stopped' } : exitCode === 0 ? { kind: 'succeeded' } : { kind: 'failed', exitCode });
      };
      const drained = setTimeout(finish, DRAIN_MS);
      child.once('close', () => {
        clearTimeout(drained);
        finish();
      });
    });
  });
}
