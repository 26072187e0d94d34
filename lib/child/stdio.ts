/**
 * A process's stdout and stderr when whoever reads them is gone.
 *
 * A write to a pipe whose reader has exited fails with EPIPE, and Node emits
 * the failure as an 'error' on the stream. Unhandled, it becomes an uncaught
 * exception; a handler that logs it (Next.js has one) writes to the same
 * closed pipe, which fails again — a loop that kept an orphaned dashboard
 * server at a full core for as long as it was left.
 *
 * Guarantees (once `guardStdio` ran)
 * - An error on stdout or stderr is handled here, never thrown: the stream is
 *   marked closed the first time, and every later write to it is dropped
 *   (its callback, if any, still runs), so nothing is retried in a loop.
 * - The first failure of each stream is noted once, on the other stream when
 *   that one is still open, and reported to every `onClosed` listener (a
 *   supervised process takes it as its parent gone: ./parent.ts).
 * Not guaranteed: that output written just before the reader left arrived.
 */

export type StdioName = 'stdout' | 'stderr';

const closed = new Set<StdioName>();
const listeners = new Set<(name: StdioName) => void>();
let installed = false;

/** Idempotent: installs the handlers once per process; each call may add a listener. */
export function guardStdio(onClosed?: (name: StdioName) => void): void {
  if (onClosed) listeners.add(onClosed);
  if (installed) return;
  installed = true;
  for (const name of ['stdout', 'stderr'] as const) process[name].on('error', (error: NodeJS.ErrnoException) => markClosed(name, error));
}

function markClosed(name: StdioName, error: NodeJS.ErrnoException): void {
  if (closed.has(name)) return;
  closed.add(name);
  const stream = process[name];
  stream.write = dropWrite as typeof stream.write;
  const other: StdioName = name === 'stdout' ? 'stderr' : 'stdout';
  if (!closed.has(other)) process[other].write(`${name} closed (${error.code ?? error.message}): its output is dropped from now on\n`);
  for (const listener of listeners) listener(name);
}

/** A write to a closed stream: nothing is written; a callback learns it is done. */
function dropWrite(_chunk: unknown, encodingOrCallback?: unknown, callback?: unknown): boolean {
  const done = typeof encodingOrCallback === 'function' ? encodingOrCallback : callback;
  if (typeof done === 'function') queueMicrotask(() => (done as () => void)());
  return true;
}
