/**
 * A Leaseboard child process that speaks one JSON line per event on stdout
 * (schedulers, the archive service): spawns `node --import tsx ENTRY` (or,
 * while LEASEBOARD_HARNESS_CHILD_BUNDLES names a folder of prebuilt bundles, `node
 * BUNDLE`: ./testing/bundles.ts), parses its lines, lets callers wait for one, writes commands to its stdin, and
 * sends signals.
 *
 * Guarantees: `stop()` resumes a paused child before SIGTERM and resolves when
 * it has exited (SIGKILL after a grace period), so nothing is left running;
 * the child's stdin stays open while this process lives, so a child started
 * with LEASEBOARD_HARNESS_EXIT_WITH_PARENT=1 stops by itself when this process is gone.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';

export { listenToParent } from './parent';

export type JsonLine = { event: string; [key: string]: unknown };

export type ChildSignal = 'SIGUSR1' | 'SIGUSR2' | 'SIGSTOP' | 'SIGCONT' | 'SIGTERM' | 'SIGKILL';

export const ROOT = path.resolve(__dirname, '../..');

/** How node runs `entry` (relative to the repository root): its prebuilt bundle when the test tiers made one, else through tsx. */
export function entryArgs(entry: string): string[] {
  const bundles = process.env.LEASEBOARD_HARNESS_CHILD_BUNDLES;
  const bundle = bundles ? path.join(bundles, entry.replace(/\.ts$/, '.js')) : null;
  return bundle && existsSync(bundle) ? [bundle] : ['--import', 'tsx', path.join(ROOT, entry)];
}

export interface JsonLineProcessOptions {
  /** Shown in timeout messages, e.g. `scheduler A`. */
  name: string;
  /** Entry module, relative to the repository root. */
  entry: string;
  args: string[];
  env?: Record<string, string>;
  cwd?: string;
  /** Called with every line (parsed JSON, `{ event: 'raw' }` for other stdout, `{ event: 'stderr' }`). */
  onLine?: (line: JsonLine) => void;
}

export class JsonLineProcess {
  readonly child: ChildProcess;
  readonly lines: JsonLine[] = [];
  paused = false;
  private closed = false;
  private readonly exited: Promise<number | null>;
  private waiters: { predicate: (line: JsonLine) => boolean; resolve: (line: JsonLine) => void; reject: (error: Error) => void }[] = [];

  constructor(private readonly spec: JsonLineProcessOptions) {
    this.child = spawn(process.execPath, [...entryArgs(spec.entry), ...spec.args], {
      cwd: spec.cwd ?? ROOT,
      env: { ...process.env, ...spec.env, LEASEBOARD_HARNESS_EXIT_WITH_PARENT: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
    // Once its output is closed (after exit, and after its last line), nothing more comes: waiting fails at once.
    this.child.once('close', (code, signal) => {
      this.closed = true;
      for (const waiter of this.waiters.splice(0)) waiter.reject(new Error(`${spec.name} exited (${signal ?? code}) before a matching line`));
    });
    this.child.stdin!.on('error', () => {}); // a child that exited closes its end; writes then fail harmlessly
    readline.createInterface({ input: this.child.stdout! }).on('line', (text) => this.record(parse(text)));
    readline.createInterface({ input: this.child.stderr! }).on('line', (text) => this.record({ event: 'stderr', text }));
  }

  protected record(line: JsonLine): void {
    this.lines.push(line);
    if (this.lines.length > 5_000) this.lines.splice(0, 1_000);
    this.spec.onLine?.(line);
    this.waiters = this.waiters.filter((waiter) => !(waiter.predicate(line) && (waiter.resolve(line), true)));
  }

  get pid(): number {
    return this.child.pid!;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Resolves with the first line (already seen or future) matching `predicate`; rejects after `timeoutMs` or once the process has exited. */
  waitFor(predicate: (line: JsonLine) => boolean, timeoutMs = 15_000): Promise<JsonLine> {
    const seen = this.lines.find(predicate);
    if (seen) return Promise.resolve(seen);
    if (this.closed) return Promise.reject(new Error(`${this.spec.name} has exited; no matching line`));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((waiter) => waiter.resolve !== done);
        reject(new Error(`${this.spec.name}: no matching line within ${timeoutMs} ms; last: ${JSON.stringify(this.lines.slice(-5))}`));
      }, timeoutMs);
      const done = (line: JsonLine) => {
        clearTimeout(timer);
        resolve(line);
      };
      const fail = (error: Error) => {
        clearTimeout(timer);
        reject(error);
      };
      this.waiters.push({ predicate, resolve: done, reject: fail });
    });
  }

  /**
   * Resolves once the kernel reports the child stopped (SIGSTOP): a child that
   * stops itself announces it just BEFORE it stops, and a SIGCONT sent in
   * between would be lost. Linux (/proc); elsewhere it resolves at once.
   */
  async stopped(timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const state = kernelState(this.pid);
      if (state === null || state === 'T' || state === 't' || !this.running) return;
      if (Date.now() > deadline) throw new Error(`${this.spec.name}: not stopped within ${timeoutMs} ms (state ${state})`);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }

  /** Writes one JSON command line to the child's stdin. */
  send(command: object): void {
    if (this.running) this.child.stdin!.write(`${JSON.stringify(command)}\n`);
  }

  /** Sends a signal; SIGSTOP/SIGCONT also track `paused`. */
  signal(signal: ChildSignal): void {
    if (!this.running) return;
    this.child.kill(signal);
    if (signal === 'SIGSTOP') this.paused = true;
    if (signal === 'SIGCONT') this.paused = false;
  }

  /** Graceful stop (SIGCONT first if paused), SIGKILL after `graceMs`. Resolves with the exit code. */
  async stop(graceMs = 10_000): Promise<number | null> {
    if (this.running) {
      if (this.paused) this.signal('SIGCONT');
      this.signal('SIGTERM');
      const timer = setTimeout(() => this.signal('SIGKILL'), graceMs);
      const code = await this.exited;
      clearTimeout(timer);
      return code;
    }
    return this.exited;
  }

  exit(): Promise<number | null> {
    return this.exited;
  }
}

/** The kernel's one-letter state of a process (`T` stopped, `R`/`S` running…), or null where /proc is not available. */
export function kernelState(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.charAt(stat.lastIndexOf(')') + 2);
  } catch {
    return null;
  }
}

function parse(text: string): JsonLine {
  try {
    const value = JSON.parse(text) as unknown;
    if (value && typeof value === 'object' && typeof (value as JsonLine).event === 'string') return value as JsonLine;
  } catch {
    // not JSON
  }
  return { event: 'raw', raw: text };
}
