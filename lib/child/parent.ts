/**
 * Leaving when whoever started this process is gone — in time, whatever else
 * is gone with it (the database, the pipes).
 *
 * A supervised Leaseboard process (the dashboard server, schedulers, the
 * archive, the demo's database; LEASEBOARD_HARNESS_EXIT_WITH_PARENT=1) takes any of
 * these as its parent gone:
 * - its stdin, a pipe from the parent, reaches its end (the parent exited or
 *   was killed: the kernel closes its end);
 * - it was reparented (`process.ppid` changed: the parent died, even if
 *   something else still holds the stdin pipe);
 * - its stdout or stderr was closed under it (./stdio.ts: the reader left).
 *
 * Guarantees
 * - `onGone` is called once, with the first sign seen; the process's own
 *   output is guarded (./stdio.ts) so a closed pipe never becomes a loop.
 * - Shutdown has a deadline (`shutdownWithin`): whatever the stop routine
 *   waits on — a database that is gone, a socket that never drains — the
 *   process exits within `deadlineMs` of the first request to stop.
 * - Polling costs one `getppid` every `PARENT_POLL_MS`, on an unref'd timer
 *   (it never keeps the process alive by itself).
 * Not guaranteed: a parent that is alive but hung is not "gone".
 */
import readline from 'node:readline';
import { guardStdio, type StdioName } from './stdio';

const PARENT_POLL_MS = 500;
/** How long a process may take to stop once asked (signal, or parent gone) before it exits regardless. */
export const SHUTDOWN_DEADLINE_MS = 5_000;

export type ParentLoss = 'stdin_closed' | 'reparented' | `${StdioName}_closed`;

export interface ParentWatchOptions {
  /** Take the end of stdin as the parent gone (stdin must be a pipe from it). */
  stdin: boolean;
  pollMs?: number;
}

/** Calls `onGone` once, at the first sign that the parent is gone (see the module header). */
export function watchParent(onGone: (why: ParentLoss) => void, options: ParentWatchOptions): void {
  let gone = false;
  const once = (why: ParentLoss) => {
    if (gone) return;
    gone = true;
    clearInterval(poll);
    onGone(why);
  };
  const startedUnder = process.ppid;
  const poll = setInterval(() => process.ppid !== startedUnder && once('reparented'), options.pollMs ?? PARENT_POLL_MS);
  poll.unref();
  guardStdio((name) => once(`${name}_closed`));
  if (options.stdin) {
    process.stdin.once('end', () => once('stdin_closed'));
    process.stdin.once('close', () => once('stdin_closed'));
    process.stdin.once('error', () => once('stdin_closed'));
    process.stdin.resume();
  }
}

export interface Shutdown {
  /** Starts stopping (once; later calls are ignored) and exits with `code` when done, or with 1 at the deadline. */
  (why: string, code?: number): void;
  readonly started: boolean;
}

/**
 * An idempotent shutdown with a deadline: the first call runs `stop`, then
 * exits with the given code; if `stop` has not finished within `deadlineMs`
 * (or fails), the process exits with 1 and says so through `log`.
 */
export function shutdownWithin(deadlineMs: number, stop: (why: string) => Promise<unknown>, log: (line: string) => void): Shutdown {
  let started = false;
  const shutdown = (why: string, code = 0) => {
    if (started) return;
    started = true;
    // Not unref'd: this timer is what guarantees the exit.
    setTimeout(() => {
      log(`shutdown (${why}): still stopping after ${deadlineMs} ms; exiting now`);
      process.exit(1);
    }, deadlineMs);
    stop(why).then(
      () => process.exit(code),
      (error: unknown) => {
        log(`shutdown (${why}): ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      },
    );
  };
  Object.defineProperty(shutdown, 'started', { get: () => started });
  return shutdown as Shutdown;
}

/** Whether this process was started by a Leaseboard supervisor (the demo, tests), which set LEASEBOARD_HARNESS_EXIT_WITH_PARENT=1. */
function supervised(): boolean {
  return process.env.LEASEBOARD_HARNESS_EXIT_WITH_PARENT === '1';
}

/**
 * For supervised child entry points: JSON command lines from stdin, and
 * `onGone` when the parent is gone (see the module header); the process then
 * exits within SHUTDOWN_DEADLINE_MS whatever `onGone` waits on. Does nothing
 * unless LEASEBOARD_HARNESS_EXIT_WITH_PARENT=1.
 */
export function listenToParent(onCommand: (command: Record<string, unknown>) => void, onGone: () => void): void {
  if (!supervised()) return;
  readline.createInterface({ input: process.stdin }).on('line', (text) => {
    try {
      const command = JSON.parse(text) as unknown;
      if (command && typeof command === 'object') onCommand(command as Record<string, unknown>);
    } catch {
      // ignore what is not a command
    }
  });
  watchParent(
    (why) => {
      setTimeout(() => process.exit(1), SHUTDOWN_DEADLINE_MS);
      process.stderr.write(`parent gone (${why}): stopping\n`);
      onGone();
    },
    { stdin: true },
  );
}
