/**
 * The fleet's judge: every injected fault against what the status list
 * showed. Pure: faults and observations in (times in epoch ms, observations
 * at the database time of the read), judgements out.
 *
 * The rules
 * - Detected: every lease a fault touches shows the fault's health
 *   (./plan.ts FaultTiming.expect) at a read no later than start + its
 *   threshold + one poll.
 * - Recovered: once the fault ended, every lease it touched reads healthy
 *   (progressing or idle) within `recoveryMs`.
 * - No false status: a lease reads anything but progressing, idle at a read
 *   only while a fault that touches it is active or recovering (from its
 *   start until it recovered, at most `recoveryMs` after its end).
 * - Renewals: a renewal that missed its deadline, or a lease lost to
 *   self-suspicion, is excused only in a process that was paused or killed,
 *   from the fault's start to its end + ttl + renewDeadline.
 */
import type { FaultKind, FaultTiming } from './plan';

export interface Fault {
  id: number;
  kind: FaultKind;
  /** The process it was injected into (all of its leases for pause and kill, one for freeze and drop). */
  worker: number;
  leases: readonly string[];
  startedAt: number;
  endedAt: number | null;
  timing: FaultTiming;
}

export interface FaultJudgement {
  fault: Fault;
  /** Leases not seen in the expected health in time, and the slowest detection (ms after the start; Infinity: never). */
  undetected: string[];
  slowestDetectionMs: number;
  /** Leases not healthy again within recoveryMs of the end, and the slowest recovery. */
  unrecovered: string[];
  slowestRecoveryMs: number;
}

export interface FalseStatus {
  at: number;
  lease: string;
  health: string;
}

const FALSE_KEPT = 50;

export class FleetJudge {
  readonly faults: Fault[] = [];
  private readonly detected = new Map<number, Map<string, number>>();
  private readonly recovered = new Map<number, Map<string, number>>();
  private readonly touched = new Map<number, ReadonlySet<string>>();
  readonly falseStatuses: FalseStatus[] = [];
  falseCount = 0;
  /** The first and last read that showed a false status (database time). */
  falseSpan: { from: number; to: number } | null = null;
  reads = 0;

  constructor(
    private readonly pollMs: number,
    private readonly recoveryMs: number,
  ) {}

  start(fault: Omit<Fault, 'id' | 'endedAt'>): Fault {
    const started: Fault = { ...fault, id: this.faults.length + 1, endedAt: null };
    this.faults.push(started);
    this.detected.set(started.id, new Map());
    this.recovered.set(started.id, new Map());
    this.touched.set(started.id, new Set(started.leases));
    return started;
  }

  end(fault: Fault, at: number): void {
    fault.endedAt = at;
  }

  /** Faults touching `lease` that still excuse an unhealthy reading at `at`. */
  private excusing(lease: string, at: number): Fault[] {
    return this.faults.filter(
      (fault) =>
        fault.startedAt <= at &&
        this.touched.get(fault.id)!.has(lease) &&
        (fault.endedAt === null || (at <= fault.endedAt + this.recoveryMs && !this.recovered.get(fault.id)!.has(lease))),
    );
  }

  /** One read of the list at database time `at`: the health of every scheduler not healthy (the rest are healthy). */
  observe(at: number, unhealthy: ReadonlyMap<string, string>): void {
    this.reads += 1;
    for (const [lease, health] of unhealthy) {
      if (this.excusing(lease, at).length > 0) continue;
      this.falseCount += 1;
      this.falseSpan = { from: this.falseSpan?.from ?? at, to: at };
      if (this.falseStatuses.length < FALSE_KEPT) this.falseStatuses.push({ at, lease, health });
    }
    for (const fault of this.faults) {
      if (at < fault.startedAt || (fault.endedAt !== null && at > fault.endedAt + this.recoveryMs)) continue;
      const detected = this.detected.get(fault.id)!;
      const recovered = this.recovered.get(fault.id)!;
      for (const lease of fault.leases) {
        const health = unhealthy.get(lease) ?? 'healthy';
        if (health === fault.timing.expect && !detected.has(lease)) detected.set(lease, at);
        if (fault.endedAt !== null && at >= fault.endedAt && health === 'healthy' && !recovered.has(lease)) recovered.set(lease, at);
      }
    }
  }

  judge(): FaultJudgement[] {
    return this.faults.map((fault) => {
      const detected = this.detected.get(fault.id)!;
      const recovered = this.recovered.get(fault.id)!;
      const detectIn = fault.timing.withinMs + this.pollMs;
      const detection = (lease: string) => (detected.has(lease) ? detected.get(lease)! - fault.startedAt : Infinity);
      const recovery = (lease: string) => (recovered.has(lease) && fault.endedAt !== null ? recovered.get(lease)! - fault.endedAt : Infinity);
      return {
        fault,
        undetected: fault.leases.filter((lease) => detection(lease) > detectIn),
        slowestDetectionMs: Math.max(...fault.leases.map(detection)),
        unrecovered: fault.leases.filter((lease) => recovery(lease) > this.recoveryMs),
        slowestRecoveryMs: Math.max(...fault.leases.map(recovery)),
      };
    });
  }

  /**
   * Renewal misses of process `worker` not excused by a pause or kill of that
   * process. `misses` are the kept instants of `missed` (the first ones of a
   * window); when every kept one is excused, so are the rest of that window.
   */
  unexcusedMisses(worker: number, missed: number, misses: readonly number[], graceMs: number): number {
    const excused = (at: number) =>
      this.faults.some(
        (fault) =>
          fault.worker === worker && (fault.kind === 'pause' || fault.kind === 'kill') && at >= fault.startedAt && at <= (fault.endedAt ?? Infinity) + graceMs,
      );
    const kept = misses.filter((at) => !excused(at)).length;
    return kept > 0 ? kept + (missed - misses.length) : 0;
  }
}
