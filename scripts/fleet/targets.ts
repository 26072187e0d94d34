/**
 * What the fault injector aims at: the fleet's processes, real ones first
 * (./workers.ts, 0 … P−1) and then the generator's simulated ones
 * (./simulated.ts, P … P+S−1), each with its slice of leases. The judge knows
 * a process by this index, so a simulated process's renewal misses are
 * excused exactly as a real one's: only by a pause or kill of that process.
 *
 * Guarantees: `pause` is SIGSTOP/SIGCONT for a real process and a stop of
 * every statement for a simulated one; `kill` a SIGKILL or a forgetting
 * without release; `restart` resolves once the process holds its leases again.
 */
import type { SimulatedFleet } from './simulated';
import type { FleetWorkers } from './workers';

export interface FaultTargets {
  readonly count: number;
  readonly slices: readonly (readonly string[])[];
  pause(i: number, paused: boolean): void;
  /** A lease drill for one lease of process i (`freeze` or `drop`, on or off). */
  send(i: number, command: { command: 'freeze' | 'drop'; lease: string; on: boolean }): void;
  kill(i: number): Promise<void>;
  restart(i: number, timeoutMs: number): Promise<void>;
}

export class MixedFleet implements FaultTargets {
  readonly slices: readonly (readonly string[])[];

  constructor(
    private readonly real: FleetWorkers,
    private readonly simulated: SimulatedFleet | null,
  ) {
    this.slices = [...real.slices, ...(simulated?.spec.processes ?? [])];
  }

  get count(): number {
    return this.slices.length;
  }

  /** The simulated process index of fleet process i, or null for a real one. */
  private sim(i: number): number | null {
    return i < this.real.count ? null : i - this.real.count;
  }

  pause(i: number, paused: boolean): void {
    const p = this.sim(i);
    if (p === null) this.real.signal(i, paused ? 'SIGSTOP' : 'SIGCONT');
    else this.simulated!.pause(p, paused);
  }

  send(i: number, command: { command: 'freeze' | 'drop'; lease: string; on: boolean }): void {
    const p = this.sim(i);
    if (p === null) this.real.send(i, command);
    else this.simulated!.send(command);
  }

  async kill(i: number): Promise<void> {
    const p = this.sim(i);
    if (p === null) await this.real.kill(i);
    else this.simulated!.kill(p);
  }

  async restart(i: number, timeoutMs: number): Promise<void> {
    const p = this.sim(i);
    if (p === null) await this.real.restart(i, timeoutMs);
    else await this.simulated!.restart(p, timeoutMs);
  }
}
