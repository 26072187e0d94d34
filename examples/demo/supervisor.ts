/**
 * The demo supervisor's process registry: named scheduler processes and the
 * fault drills an operator can apply to each (docs/design.md, "Fault
 * model"). State shown is the process's own word (its JSON events), not a
 * guess: `frozen` flips only when the scheduler says it froze.
 * Guarantees: `stopAll()` resumes paused processes, stops them gracefully
 * (SIGKILL after a grace period) and resolves when all have exited.
 */
import type { DrillAction, DemoProcess } from '../../lib/api/types';
import { SchedulerProcess } from '../../lib/child/scheduler-process';
import { DEMO_SCHEDULER_PROGRAM } from './demo-scheduler';

export interface DemoSchedulerSpec {
  id: string;
  lease: string;
  label: string;
  flags: Record<string, number>;
  /** Text flags, e.g. `{ 'archive-url': … }`. */
  options?: Record<string, string>;
  /** Extra environment, e.g. `{ LEASEBOARD_ARCHIVE_TOKEN: … }`. */
  env?: Record<string, string>;
}

/**
 * How long "Pause mid-write" keeps a process stopped: past its ttl and long
 * enough for another instance to take over (its retry comes every renew-every ±10%).
 */
export function midWritePauseMs(flags: Record<string, number>): number {
  return (flags.ttl ?? 15_000) + 2 * (flags['renew-every'] ?? 5_000);
}

export type ActionOutcome = { kind: 'done'; process: DemoProcess } | { kind: 'not_found' } | { kind: 'not_running'; process: DemoProcess };

interface Entry {
  spec: DemoSchedulerSpec;
  process: SchedulerProcess;
  frozen: boolean;
  dropping: boolean;
  pausingMidWrite: boolean;
}

export class DemoSupervisor {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly databaseUrl: string,
    private readonly log: (id: string, line: string) => void = () => {},
  ) {}

  start(spec: DemoSchedulerSpec): void {
    const entry: Entry = { spec, frozen: false, dropping: false, pausingMidWrite: false, process: undefined as unknown as SchedulerProcess };
    entry.process = new SchedulerProcess({
      program: DEMO_SCHEDULER_PROGRAM,
      lease: spec.lease,
      label: spec.label,
      databaseUrl: this.databaseUrl,
      flags: spec.flags,
      options: spec.options,
      env: spec.env,
      onLine: (line) => {
        if (line.event === 'frozen') entry.frozen = line.on === true;
        if (line.event === 'dropping_reports') entry.dropping = line.on === true;
        if (
          [
            'started',
            'acquired',
            'lost',
            'released',
            'write_rejected',
            'write_not_sent',
            'write_outcome_unknown',
            'paused_mid_write',
            'frozen',
            'dropping_reports',
            'stderr',
            'error',
          ].includes(line.event)
        ) {
          this.log(spec.id, JSON.stringify(line));
        }
      },
    });
    this.entries.set(spec.id, entry);
  }

  list(): DemoProcess[] {
    return [...this.entries.values()].map((entry) => this.view(entry));
  }

  async act(id: string, action: DrillAction): Promise<ActionOutcome> {
    const entry = this.entries.get(id);
    if (!entry) return { kind: 'not_found' };
    const { process } = entry;
    if (action === 'restart') {
      await process.stop();
      this.start(entry.spec);
      return { kind: 'done', process: this.view(this.entries.get(id)!) };
    }
    if (!process.running) return { kind: 'not_running', process: this.view(entry) };
    switch (action) {
      case 'freeze':
      case 'unfreeze':
        if (entry.frozen !== (action === 'freeze')) process.signal('SIGUSR1');
        break;
      case 'drop-reports':
      case 'resume-reports':
        if (entry.dropping !== (action === 'drop-reports')) process.signal('SIGUSR2');
        break;
      case 'pause':
        process.signal('SIGSTOP');
        break;
      case 'resume':
        process.signal('SIGCONT');
        break;
      case 'pause-mid-write':
        if (!entry.pausingMidWrite) this.pauseMidWrite(entry);
        break;
      case 'kill':
        process.signal('SIGKILL');
        await process.exit();
        break;
      case 'stop':
        await process.stop();
        break;
      default: {
        const unreachable: never = action;
        throw new Error(`unknown demo action ${String(unreachable)}`);
      }
    }
    return { kind: 'done', process: this.view(entry) };
  }

  /** Arms the drill; the process stops itself at its next fenced write, and is resumed after `midWritePauseMs`. */
  private pauseMidWrite(entry: Entry): void {
    entry.pausingMidWrite = true;
    const { process, spec } = entry;
    const waitMs = midWritePauseMs(spec.flags);
    process
      .pauseMidWrite('write', () => new Promise((resolve) => setTimeout(resolve, waitMs)), 10 * 60_000)
      .catch((error: unknown) => this.log(spec.id, JSON.stringify({ event: 'error', where: 'pause-mid-write', message: String(error) })))
      .finally(() => (entry.pausingMidWrite = false));
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.entries.values()].map((entry) => entry.process.stop()));
  }

  private view(entry: Entry): DemoProcess {
    const { process, spec } = entry;
    const state = !process.running ? 'exited' : process.paused ? 'paused' : process.token ? 'running' : 'starting';
    const live = state !== 'exited';
    return {
      id: spec.id,
      lease: spec.lease,
      label: spec.label,
      token: process.token,
      state,
      frozen: live && entry.frozen,
      droppingReports: live && entry.dropping,
      pausingMidWrite: live && entry.pausingMidWrite,
    };
  }
}
