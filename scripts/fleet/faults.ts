/**
 * The fleet's faults, one every `faultEveryMs`, the kinds in turn, each in a
 * real or a simulated process (./targets.ts): a process
 * paused (SIGSTOP, then SIGCONT; a simulated one stops sending), a lease whose progress freezes (the
 * runtime's drill: reports go on, the cursor stops), a lease whose reports
 * are dropped (the seq keeps counting, so they resume with a jump), a
 * process killed (SIGKILL, restarted once its leases expired).
 *
 * Guarantees: each fault is recorded in the judge with its start before it
 * is injected and its end after it is undone; a process carries at most one
 * process-wide fault (pause, kill) and then no other, and a lease at most one
 * fault, each free again only once the fault's recovery window has passed (so
 * each fault is judged alone); every fault is undone by
 * `drain()` (a paused process resumed, a frozen or dropping lease switched back).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Fault, FleetJudge } from './judge';
import { FAULT_KINDS, type FaultKind, type FleetPlan } from './plan';
import type { FaultTargets } from './targets';

export class FaultInjector {
  /** Per process: its faults in progress or recovering, and whether one of them takes the whole process. */
  private readonly busy = new Map<number, { faults: number; whole: boolean }>();
  private readonly leasesBusy = new Set<string>();
  private readonly running = new Set<Promise<void>>();
  private next = 0;
  active = 0;

  constructor(
    private readonly plan: FleetPlan,
    private readonly workers: FaultTargets,
    private readonly judge: FleetJudge,
    private readonly log: (line: string) => void,
    private readonly onError: (message: string) => void,
  ) {}

  /** Injects the next kind into a free process (none free: skipped, said). */
  inject(): void {
    const kind = FAULT_KINDS[this.next++ % FAULT_KINDS.length]!;
    const whole = kind === 'pause' || kind === 'kill';
    // A whole-process fault needs a process with no fault at all; a one-lease fault, one with no whole-process fault.
    const free = Array.from({ length: this.workers.count }, (_, i) => i).filter((i) => (whole ? !this.busy.has(i) : !this.busy.get(i)?.whole));
    if (free.length === 0) return this.log(`fault ${kind}: every process is still under a fault; skipped`);
    const worker = free[Math.floor(Math.random() * free.length)]!;
    const slice = this.workers.slices[worker]!.filter((lease) => !this.leasesBusy.has(lease));
    if (slice.length === 0) return this.log(`fault ${kind}: every lease of process ${worker} is under a fault; skipped`);
    const leases = whole ? slice : [slice[Math.floor(Math.random() * slice.length)]!];
    const held = this.busy.get(worker) ?? { faults: 0, whole: false };
    this.busy.set(worker, { faults: held.faults + 1, whole: held.whole || whole });
    for (const lease of leases) this.leasesBusy.add(lease);
    this.active += 1;
    const run = this.run(kind, worker, leases)
      .catch((error: unknown) => this.onError(`fault ${kind} in process ${worker}: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => (this.active -= 1));
    this.running.add(run);
    void run.then(async () => {
      this.running.delete(run);
      await sleep(this.plan.recoveryMs);
      for (const lease of leases) this.leasesBusy.delete(lease);
      const now = this.busy.get(worker)!;
      if (now.faults === 1) this.busy.delete(worker);
      else this.busy.set(worker, { faults: now.faults - 1, whole: now.whole && !whole });
    });
  }

  private async run(kind: FaultKind, worker: number, leases: string[]): Promise<void> {
    const timing = this.plan.faults[kind];
    const lease = leases[0]!;
    const fault = this.judge.start({ kind, worker, leases, startedAt: Date.now(), timing });
    this.log(
      `fault ${fault.id}: ${kind} ${kind === 'pause' || kind === 'kill' ? `process ${worker} (${leases.length} leases)` : lease} for ${timing.lastsMs} ms`,
    );
    await this.apply(fault, lease);
    this.judge.end(fault, Date.now());
  }

  private async apply(fault: Fault, lease: string): Promise<void> {
    const { worker } = fault;
    const lasts = fault.timing.lastsMs;
    switch (fault.kind) {
      case 'pause':
        this.workers.pause(worker, true);
        await sleep(lasts);
        this.workers.pause(worker, false);
        return;
      case 'freeze':
      case 'drop': {
        const command = fault.kind;
        this.workers.send(worker, { command, lease, on: true });
        await sleep(lasts);
        this.workers.send(worker, { command, lease, on: false });
        return;
      }
      case 'kill':
        await this.workers.kill(worker);
        await sleep(lasts);
        // Ends when the new process holds every lease again (its start is part of the outage).
        await this.workers.restart(worker, 120_000);
        return;
      default: {
        const unreachable: never = fault.kind;
        throw new Error(`unexpected fault ${String(unreachable)}`);
      }
    }
  }

  /** Waits for every fault in progress to be undone. */
  async drain(): Promise<void> {
    await Promise.all([...this.running]);
  }
}
