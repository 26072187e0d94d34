/**
 * A scheduler as a child process: spawns the CLI (`node --import tsx
 * lib/cli/main.ts scheduler …`, the composition root) or another program
 * built on the same code (`program`, e.g. the demo's), parses its JSON-line events, and sends the fault
 * signals and commands. Used by the demo supervisor and by tests (real
 * processes, real signals). Guarantees: those of ../child/json-line-process.ts
 * (`stop()` leaves nothing running; a child stops by itself when this process
 * is gone), and `pauseMidWrite` always resumes the child it paused.
 */
import { type JsonLine, JsonLineProcess } from './json-line-process';
import type { SideEffect } from '../scheduler';

export interface SchedulerProcessOptions {
  lease: string;
  label: string;
  databaseUrl: string;
  /** The job to run (`--job`); the CLI has no default job, a `program` may have one. */
  job?: string;
  /**
   * The scheduler program (relative to the repository root) when not Leaseboard's own CLI: an entry
   * that calls lib/cli/scheduler.ts `runScheduler` with its own jobs, e.g. `examples/demo/scheduler.ts`.
   */
  program?: string;
  /**
   * Extra numeric CLI flags, e.g. `{ ttl: 3000, 'renew-every': 1000 }`: timings in milliseconds, passed
   * with their unit (`--ttl 3000ms`, the CLI takes durations only); counts (`batch-size`) as they are.
   */
  flags?: Record<string, number>;
  /** Extra text CLI flags, e.g. `{ 'archive-url': 'http://127.0.0.1:…' }`. */
  options?: Record<string, string>;
  /** Extra environment (e.g. a job's own settings); DATABASE_URL is always `databaseUrl`. */
  env?: Record<string, string>;
  /** Called with every line the child prints (parsed JSON, or `{ raw }`). */
  onLine?: (line: SchedulerLine) => void;
  cwd?: string;
}

export type SchedulerLine = JsonLine;

/** The scheduler CLI's numeric flags that count things; every other numeric flag is a duration. */
const COUNT_FLAGS: ReadonlySet<string> = new Set(['batch-size']);

export class SchedulerProcess extends JsonLineProcess {
  token: string | null = null;

  constructor(readonly options: SchedulerProcessOptions) {
    const flags = [
      ...Object.entries(options.flags ?? {}).flatMap(([flag, value]) => [`--${flag}`, COUNT_FLAGS.has(flag) ? String(value) : `${value}ms`]),
      ...Object.entries(options.options ?? {}).flatMap(([flag, value]) => [`--${flag}`, value]),
    ];
    super({
      name: `scheduler ${options.label}`,
      entry: options.program ?? 'lib/cli/main.ts',
      args: [
        ...(options.program ? [] : ['scheduler']),
        '--lease',
        options.lease,
        '--label',
        options.label,
        ...(options.job ? ['--job', options.job] : []),
        ...flags,
      ],
      env: { ...options.env, DATABASE_URL: options.databaseUrl },
      cwd: options.cwd,
      onLine: options.onLine,
    });
  }

  protected override record(line: JsonLine): void {
    if (line.event === 'started' && typeof line.token === 'string') this.token = line.token;
    super.record(line);
  }

  /**
   * The fault drill "pause mid-write": arms the child, which stops itself
   * (SIGSTOP) at its next fenced write (or external call) after capturing its
   * fence and before sending it. Once the kernel reports it stopped, waits for
   * `resumeWhen` and sends SIGCONT. Resolves with the `paused_mid_write` line, after the resume.
   */
  async pauseMidWrite(action: SideEffect, resumeWhen: (paused: JsonLine) => Promise<unknown>, timeoutMs = 60_000): Promise<JsonLine> {
    const seen = this.lines.length;
    this.send({ command: 'pause-before', action });
    const paused = await this.waitFor((line) => line.event === 'paused_mid_write' && this.lines.indexOf(line) >= seen, timeoutMs);
    this.paused = true;
    try {
      await this.stopped(); // it announces the pause just before it stops itself
      await resumeWhen(paused);
    } finally {
      this.signal('SIGCONT');
    }
    return paused;
  }
}
