/**
 * The fleet's load generator, seen from the fleet: one child process
 * (./simulator.ts) driving `processes` simulated scheduler processes, with
 * the same handle the fault injector uses on a real process (pause, kill,
 * restart, freeze, drop) — each aimed at one simulated process or lease.
 *
 * Guarantees: `kill(p)` makes simulated process p forget its leases without a
 * release and send nothing; `restart(p)` gives it a new holder token and
 * resolves once it holds every lease again; a generator that exits unasked is
 * reported through `onExit`; `stop()` resolves when it has exited. It exits by
 * itself if this process dies. The spec travels in a file of its own (0600,
 * removed when the generator exits): 10,000 lease names as an argument passed
 * Linux's 128 KiB limit for one (spawn E2BIG).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type JsonLine, JsonLineProcess } from '../../lib/child/json-line-process';
import type { LatencySummary } from './latency';
import type { SimulatorSpec } from './simulator';

export interface SimulatorStats {
  at: number;
  held: number;
  renew: LatencySummary;
  renewStatement: LatencySummary;
  report: LatencySummary;
  reportStatement: LatencySummary;
  /** Occurrence claims (with their intent read) and completions. */
  work: LatencySummary;
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
  /** Per simulated process: its renewals that missed their deadline (and the first instants). */
  perProcess: { missed: number; misses: number[]; missedBy: { late: number; lost: number; unknown: number; error: number } }[];
  reportErrors: number;
  dropped: number;
  errors: number;
  /** The most statements seen waiting for a connection of the generator's pool at one tick. */
  poolWaitMax: number;
}

export class SimulatedFleet {
  private readonly process: JsonLineProcess;
  readonly incidents: { process: number; line: JsonLine }[] = [];
  private statsAsked = 0;
  private restarts = 0;
  private stopping = false;

  constructor(
    readonly spec: SimulatorSpec,
    databaseUrl: string,
    onExit: (code: number | null, lastLines: string[]) => void,
  ) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'leaseboard-simulator-'));
    const specFile = path.join(dir, 'spec.json');
    writeFileSync(specFile, JSON.stringify(spec), { mode: 0o600 });
    this.process = new JsonLineProcess({
      name: 'fleet simulator',
      entry: 'scripts/fleet/simulator.ts',
      args: [specFile],
      env: { DATABASE_URL: databaseUrl },
      onLine: (line) => {
        if ((line.event === 'lost' || line.event === 'error' || line.event === 'stderr') && this.incidents.length < 10_000)
          this.incidents.push({ process: typeof line.process === 'number' ? line.process : -1, line });
      },
    });
    void this.process.exit().then((code) => {
      rmSync(dir, { recursive: true, force: true });
      if (!this.stopping)
        onExit(
          code,
          this.process.lines.slice(-5).map((line) => JSON.stringify(line)),
        );
    });
  }

  get pid(): number {
    return this.process.pid;
  }

  /** Resolves once every simulated lease is held. */
  async ready(timeoutMs: number): Promise<void> {
    await this.process.waitFor((line) => line.event === 'ready', timeoutMs);
  }

  send(command: object): void {
    this.process.send(command);
  }

  /** Simulated process p stops sending (pause) or goes on (resume), as SIGSTOP and SIGCONT do to a real one. */
  pause(p: number, paused: boolean): void {
    this.send({ command: paused ? 'pause' : 'resume', process: p });
  }

  kill(p: number): void {
    this.send({ command: 'kill', process: p });
  }

  async restart(p: number, timeoutMs: number): Promise<void> {
    // Its own id: an earlier restart's answer (a line already seen) must not answer this one.
    const id = ++this.restarts;
    const ready = this.process.waitFor((line) => line.event === 'process_ready' && line.id === id, timeoutMs);
    this.send({ command: 'restart', process: p, id });
    await ready;
  }

  /** The window's figures since the last call (null: no answer in time). */
  async stats(timeoutMs: number): Promise<SimulatorStats | null> {
    const id = ++this.statsAsked;
    const waiting = this.process.waitFor((line) => line.event === 'stats' && line.id === id, timeoutMs);
    this.send({ command: 'stats', id });
    return (await waiting.catch(() => null)) as SimulatorStats | null;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.process.stop();
  }
}
