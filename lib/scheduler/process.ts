/**
 * A scheduler as a child process: spawns the CLI (`node --import tsx
 * lib/scheduler/cli.ts`), parses its JSON-line events, and sends the fault
 * signals. Used by the demo supervisor and by tests (real processes, real
 * signals). Guarantees: `stop()` resumes a paused child before SIGTERM and
 * resolves when it has exited (SIGKILL after a grace period), so nothing is
 * left running; and a child stops by itself when this process is gone.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';

export interface SchedulerProcessOptions {
  lease: string;
  label: string;
  databaseUrl: string;
  /** Extra CLI flags, e.g. `{ ttl: 3000, 'renew-every': 1000 }`. */
  flags?: Record<string, number>;
  /** Called with every line the child prints (parsed JSON, or `{ raw }`). */
  onLine?: (line: SchedulerLine) => void;
  cwd?: string;
}

export type SchedulerLine = { event: string; [key: string]: unknown };

const ROOT = path.resolve(__dirname, '../..');

export class SchedulerProcess {
  readonly child: ChildProcess;
  readonly lines: SchedulerLine[] = [];
  token: string | null = null;
  paused = false;
  private readonly exited: Promise<number | null>;
  private waiters: { predicate: (line: SchedulerLine) => boolean; resolve: (line: SchedulerLine) => void }[] = [];

  constructor(readonly options: SchedulerProcessOptions) {
    const flags = Object.entries(options.flags ?? {}).flatMap(([flag, value]) => [`--${flag}`, String(value)]);
    this.child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'lib/scheduler/cli.ts'), '--lease', options.lease, '--label', options.label, ...flags],
      {
        cwd: options.cwd ?? ROOT,
        // stdin stays open while this process lives: the child stops when it closes.
        env: { ...process.env, DATABASE_URL: options.databaseUrl, LEASEBOARD_EXIT_WITH_PARENT: '1' },
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
    const record = (text: string) => {
      let line: SchedulerLine;
      try {
        line = JSON.parse(text) as SchedulerLine;
      } catch {
        line = { event: 'raw', raw: text };
      }
      if (line.event === 'started' && typeof line.token === 'string') this.token = line.token;
      this.lines.push(line);
      if (this.lines.length > 5_000) this.lines.splice(0, 1_000);
      options.onLine?.(line);
      this.waiters = this.waiters.filter((waiter) => !(waiter.predicate(line) && (waiter.resolve(line), true)));
    };
    readline.createInterface({ input: this.child.stdout! }).on('line', record);
    readline.createInterface({ input: this.child.stderr! }).on('line', (text) => record(JSON.stringify({ event: 'stderr', text })));
  }

  get pid(): number {
    return this.child.pid!;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Resolves with the first line (already seen or future) matching `predicate`. */
  waitFor(predicate: (line: SchedulerLine) => boolean, timeoutMs = 15_000): Promise<SchedulerLine> {
    const seen = this.lines.find(predicate);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((waiter) => waiter.resolve !== done);
        reject(new Error(`scheduler ${this.options.label}: no matching line within ${timeoutMs} ms; last: ${JSON.stringify(this.lines.slice(-5))}`));
      }, timeoutMs);
      const done = (line: SchedulerLine) => {
        clearTimeout(timer);
        resolve(line);
      };
      this.waiters.push({ predicate, resolve: done });
    });
  }

  /** Sends a signal; SIGSTOP/SIGCONT also track `paused`. */
  signal(signal: 'SIGUSR1' | 'SIGUSR2' | 'SIGSTOP' | 'SIGCONT' | 'SIGTERM' | 'SIGKILL'): void {
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
