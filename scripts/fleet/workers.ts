/**
 * The fleet's scheduler processes, as the runtime's other children are
 * started (lib/child/json-line-process.ts: `node --import tsx ENTRY`, JSON
 * lines out, commands in, real signals): process i holds the i-th slice of
 * `fleet-00001 … fleet-R` (R: the real schedulers; the simulated ones follow).
 *
 * Guarantees: `kill(i)` is a real SIGKILL and `restart(i)` a new process with
 * new instance tokens for the same leases; a process that exits unless
 * killed here is reported through `onExit`; `stop()` stops every process
 * (SIGCONT first if paused, SIGKILL after a grace period) and resolves when
 * all have exited. Children exit by themselves if this process dies.
 */
import { type JsonLine, JsonLineProcess } from '../../lib/child/json-line-process';
import type { LatencySummary } from './latency';
import type { FleetPlan } from './plan';
import type { WorkerSpec } from './worker';

export interface WorkerStats {
  at: number;
  held: number;
  renew: LatencySummary;
  renewStatement: LatencySummary;
  report: LatencySummary;
  reportStatement: LatencySummary;
  /** How late the process's event loop ran (ms, p99 and max over the window). */
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
  /** The most statements seen waiting for a connection of the process's pool (sampled every POOL_SAMPLE_MS). */
  poolWaitMax: number;
  missed: number;
  misses: number[];
  missedBy: { late: number; lost: number; unknown: number; error: number };
  reportErrors: number;
  errors: number;
}

/** A line worth keeping from a worker: a lease lost, a renewal of unknown outcome, a refused write, an error. */
export interface WorkerIncident {
  worker: number;
  line: JsonLine;
}

export const leaseName = (n: number) => `fleet-${String(n).padStart(5, '0')}`;

export class FleetWorkers {
  readonly slices: string[][];
  private readonly processes: JsonLineProcess[] = [];
  private readonly expectedExit = new Set<JsonLineProcess>();
  readonly incidents: WorkerIncident[] = [];
  private statsAsked = 0;
  private stopped = false;

  constructor(
    private readonly plan: FleetPlan,
    private readonly databaseUrl: string,
    private readonly onExit: (worker: number, code: number | null, lastLines: string[]) => void,
  ) {
    const per = Math.ceil(plan.real / plan.processes);
    this.slices = Array.from({ length: plan.processes }, (_, i) =>
      Array.from({ length: Math.max(0, Math.min(per, plan.real - i * per)) }, (_, j) => leaseName(i * per + j + 1)),
    ).filter((slice) => slice.length > 0);
    this.slices.forEach((_, i) => this.spawn(i));
  }

  private spawn(i: number): JsonLineProcess {
    const spec: WorkerSpec = { leases: this.slices[i]!, label: `w${i}`, scheduler: this.plan.scheduler, poolMax: this.plan.poolMax };
    const process = new JsonLineProcess({
      name: `fleet worker ${i}`,
      entry: 'scripts/fleet/worker.ts',
      args: [JSON.stringify(spec)],
      env: { DATABASE_URL: this.databaseUrl },
      onLine: (line) => {
        if (line.event !== 'stats' && line.event !== 'ready' && line.event !== 'started' && this.incidents.length < 10_000)
          this.incidents.push({ worker: i, line });
      },
    });
    this.processes[i] = process;
    void process.exit().then((code) => {
      if (!this.expectedExit.has(process))
        this.onExit(
          i,
          code,
          process.lines.slice(-5).map((line) => JSON.stringify(line)),
        );
    });
    return process;
  }

  get count(): number {
    return this.slices.length;
  }

  /** Resolves once process i has every one of its leases. */
  async ready(i: number, timeoutMs: number): Promise<void> {
    await this.processes[i]!.waitFor((line) => line.event === 'ready', timeoutMs);
  }

  pid(i: number): number {
    return this.processes[i]!.pid;
  }

  signal(i: number, signal: 'SIGSTOP' | 'SIGCONT'): void {
    this.processes[i]!.signal(signal);
  }

  send(i: number, command: object): void {
    this.processes[i]!.send(command);
  }

  async kill(i: number): Promise<void> {
    const process = this.processes[i]!;
    this.expectedExit.add(process);
    process.signal('SIGKILL');
    await process.exit();
  }

  /** A new process for slice i (after `kill(i)`); resolves once it holds every lease. */
  async restart(i: number, timeoutMs: number): Promise<void> {
    if (this.stopped) throw new Error(`process ${i} not restarted: the fleet is stopping`);
    this.spawn(i);
    await this.ready(i, timeoutMs);
  }

  /** Every running, unpaused process's stats for the window since the last call (null: it did not answer in time). */
  async stats(timeoutMs: number): Promise<(WorkerStats | null)[]> {
    return Promise.all(
      this.processes.map(async (process) => {
        if (!process.running || process.paused) return null;
        const id = ++this.statsAsked;
        const waiting = process.waitFor((line) => line.event === 'stats' && line.id === id, timeoutMs);
        process.send({ command: 'stats', id });
        return (await waiting.catch(() => null)) as WorkerStats | null;
      }),
    );
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const process of this.processes) this.expectedExit.add(process);
    await Promise.all(this.processes.map((process) => process.stop()));
  }
}
