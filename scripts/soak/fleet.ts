/**
 * The soak's processes: real scheduler processes (lib/cli/main.ts scheduler, the
 * same entry as `npm run scheduler`), spawned as `node --import tsx` so the
 * pid whose RSS is sampled is the scheduler itself, not an npm wrapper.
 *
 * Guarantees: `ready()` resolves once every process announced itself and
 * every lease has a holder; `stop()` stops every process (SIGKILL after a
 * grace period) and resolves when all have exited; a process that exits
 * before `stop()` is reported through `onExit`. Children exit by themselves
 * if this process dies (LEASEBOARD_HARNESS_EXIT_WITH_PARENT, lib/child).
 */
import { SchedulerProcess } from '../../lib/child/scheduler-process';
import { schedulerProgramFor } from '../../examples/demo/demo-scheduler';
import type { SoakProcessSpec } from './plan';

/** The events worth a line on the soak's output; everything else is counted, not printed. */
const SHOWN = new Set(['lost', 'write_rejected', 'error', 'stderr']);

export class SoakFleet {
  readonly processes = new Map<string, SchedulerProcess>();
  private stopping = false;

  constructor(
    specs: SoakProcessSpec[],
    databaseUrl: string,
    env: Record<string, string>,
    log: (line: string) => void,
    onExit: (id: string, code: number | null, lastLines: string[]) => void,
  ) {
    for (const spec of specs) {
      const process = new SchedulerProcess({
        lease: spec.lease,
        label: spec.label,
        ...schedulerProgramFor(spec.job),
        databaseUrl,
        flags: spec.flags,
        options: spec.options,
        env,
        onLine: (line) => SHOWN.has(line.event) && log(`[${spec.id}] ${JSON.stringify(line)}`),
      });
      this.processes.set(spec.id, process);
      void process.exit().then((code) => {
        if (!this.stopping)
          onExit(
            spec.id,
            code,
            process.lines.slice(-5).map((line) => JSON.stringify(line)),
          );
      });
    }
  }

  /** Every process started, and every lease held by one of them. */
  async ready(timeoutMs: number): Promise<void> {
    await Promise.all([...this.processes.values()].map((process) => process.waitFor((line) => line.event === 'started', timeoutMs)));
    const byLease = new Map<string, SchedulerProcess[]>();
    for (const process of this.processes.values()) byLease.set(process.options.lease, [...(byLease.get(process.options.lease) ?? []), process]);
    await Promise.all(
      [...byLease.values()].map((holders) => Promise.any(holders.map((process) => process.waitFor((line) => line.event === 'acquired', timeoutMs)))),
    );
  }

  pids(): Record<string, number> {
    return Object.fromEntries([...this.processes].map(([id, process]) => [id, process.pid]));
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all([...this.processes.values()].map((process) => process.stop()));
  }
}
