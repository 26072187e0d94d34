/**
 * The scheduler runtime: runs ONE job (./job.ts) under one lease.
 * acquire → (renew loop ‖ work loop ‖ report loop) → on a lost or unprovable
 * lease stop fenced work at once → retry acquisition.
 *
 * Guarantees
 * - Timing comes from the injected `Clock` and only schedules attempts; every
 *   lease decision is the database's (../lease/authority.ts).
 * - `stop()` ends the tenure, waits for every loop, releases a held lease,
 *   and leaves no timer, listener or connection of its own behind (the pool
 *   belongs to the caller).
 * - Freeze and drop-reports are fault drills that change only this process:
 *   frozen blocks new batches; dropping discards reports but keeps counting seq.
 * Not guaranteed: exclusive action. After a pause this process may still send
 * a write of its old epoch; the resource fence rejects it.
 */
import type pg from 'pg';
import { LeaseAuthority, newInstanceToken, withDeadline } from '../lease';
import type { ReadOnlyPool } from './actions';
import { type Clock, systemClock } from './clock';
import type { SchedulerConfig } from './config';
import { type EventSink, safeMessage, type SideEffect, type WriteStats } from './events';
import type { Job } from './job';
import { registerScheduler } from './registration';
import { type Renewer, sharedRenewer } from './renewer';
import { runReportLoop } from './report-loop';
import { appendReports } from './report-store';
import { type Reporter, sharedReporter } from './reporter';
import { Tenure } from './tenure';
import { EpochSeqs, TenureState, type WorkPosition } from './tenure-state';
import { runWorkLoop } from './work-loop';

export interface RuntimeDeps {
  /** Authority, occurrences, reports and fenced writes. */
  db: pg.Pool;
  /** For the job's read steps: sessions that refuse writes (db/pool.ts createReadOnlyPool). */
  readDb: ReadOnlyPool;
  clock?: Clock;
  token?: string;
  onEvent?: EventSink;
  /**
   * Renews the lease; default: the process's renewer for `db` and `clock`
   * (./renewer.ts), shared by every runtime on that pool, so a process holding
   * several leases renews them in one statement.
   */
  renewer?: Renewer;
  /**
   * Sends the progress reports; default: the process's reporter for `db` and
   * `clock` (./reporter.ts), shared by every runtime on that pool, so the
   * reports of a process's leases leave a few at a time in one statement.
   */
  reporter?: Reporter;
  /**
   * The fault drill "pause mid-write" (`armPauseBefore`): stops this process
   * where it stands — the CLI sends itself SIGSTOP; whoever armed it sends SIGCONT.
   * Without it, an armed pause is reported and skipped.
   */
  pause?: () => Promise<void>;
}

export interface RuntimeSnapshot {
  token: string;
  state: 'stopped' | 'acquiring' | 'leading';
  epoch: number | null;
  frozen: boolean;
  droppingReports: boolean;
  position: WorkPosition;
  writes: WriteStats;
}

export class SchedulerRuntime {
  readonly token: string;
  private readonly clock: Clock;
  private readonly authority: LeaseAuthority;
  private readonly renewer: Renewer;
  private readonly reporter: Reporter;
  private readonly emit: EventSink;
  private readonly stopping = new AbortController();
  /** Counted by the rule in ./tenure-state.ts, across every tenure of this runtime. */
  private readonly writes: WriteStats = { attempted: 0, accepted: 0, rejected: 0, unknown: 0, notSent: 0 };
  /** Report seqs per epoch: a tenure that adopts its own epoch continues the stream. */
  private readonly seqs = new EpochSeqs();
  private running: Promise<void> | null = null;
  private tenure: Tenure | null = null;
  /** What the loops of the tenure in progress share (null between tenures). */
  private state: TenureState | null = null;
  private frozen = false;
  private dropping = false;
  private unfreeze: (() => void)[] = [];
  private pauseArmed: SideEffect | null = null;

  constructor(
    private readonly job: Job,
    private readonly config: SchedulerConfig,
    private readonly deps: RuntimeDeps,
  ) {
    this.token = deps.token ?? newInstanceToken();
    this.clock = deps.clock ?? systemClock;
    this.authority = new LeaseAuthority(deps.db);
    this.renewer = deps.renewer ?? sharedRenewer(deps.db, this.authority, this.clock);
    this.reporter = deps.reporter ?? sharedReporter(deps.db, (reports) => appendReports(deps.db, reports), this.clock);
    this.emit = deps.onEvent ?? (() => {});
  }

  start(): void {
    if (this.running) throw new Error('scheduler: already started');
    this.running = this.main();
  }

  /** Stop work, release a held lease, and resolve when everything has ended. */
  async stop(): Promise<void> {
    this.stopping.abort();
    this.setFrozen(false);
    await this.running;
  }

  setFrozen(on: boolean): void {
    if (this.frozen === on) return;
    this.frozen = on;
    this.emit({ event: 'frozen', on });
    if (!on) for (const resolve of this.unfreeze.splice(0)) resolve();
  }

  setDroppingReports(on: boolean): void {
    if (this.dropping === on) return;
    this.dropping = on;
    this.emit({ event: 'dropping_reports', on });
  }

  /** Fault drill: the next fenced write (or external call) pauses after capturing its fence, before it is sent. */
  armPauseBefore(action: SideEffect): void {
    this.pauseArmed = action;
    this.emit({ event: 'fault_armed', fault: 'pause_before', action });
  }

  private async beforeSideEffect(action: SideEffect, step: string, epoch: number): Promise<void> {
    if (this.pauseArmed !== action) return;
    this.pauseArmed = null;
    this.emit({ event: 'paused_mid_write', epoch, action, step });
    await this.deps.pause?.();
  }

  /** The cadence in force: the config's override, else the job's own. */
  get everyMs(): number {
    return this.config.everyMs ?? this.job.everyMs;
  }

  snapshot(): RuntimeSnapshot {
    const leading = this.tenure && !this.tenure.signal.aborted;
    return {
      token: this.token,
      state: this.stopping.signal.aborted ? 'stopped' : leading ? 'leading' : 'acquiring',
      epoch: leading ? this.tenure!.epoch : null,
      frozen: this.frozen,
      droppingReports: this.dropping,
      position: this.state?.position ?? { occurrence: null, cursor: null },
      writes: { ...this.writes },
    };
  }

  private async main(): Promise<void> {
    const { lease } = this.config;
    const signal = this.stopping.signal;
    let registered = false;
    while (!signal.aborted) {
      registered ||= await this.register();
      if (signal.aborted) break;
      // 1. try to acquire; the request time bounds how long a grant can be trusted
      const requestedAt = this.clock.now();
      let result;
      try {
        result = await withDeadline(
          this.authority.acquire(lease, this.token, this.config.label),
          lease.renewDeadlineMs,
          () => ({ kind: 'unknown' as const, cause: 'deadline' }),
          (ms, signal) => this.clock.sleep(ms, signal),
        );
      } catch (error) {
        this.emit({ event: 'error', where: 'acquire', message: safeMessage(error) });
        result = { kind: 'unknown' as const, cause: error };
      }
      // 2. lead while the tenure lasts, or wait and retry
      switch (result.kind) {
        case 'acquired':
        case 'held_by_self':
          this.emit({ event: 'acquired', lease: lease.name, epoch: result.epoch, adopted: result.kind === 'held_by_self' });
          await this.lead(result.epoch, requestedAt, result.kind === 'acquired');
          continue;
        case 'held':
          this.emit({ event: 'held', lease: lease.name, holder: result.holder, epoch: result.epoch });
          break;
        case 'disabled':
          this.emit({ event: 'disabled', lease: lease.name, by: result.by, reason: result.reason });
          break;
        case 'changed':
          break;
        case 'unknown':
          this.emit({ event: 'acquire_unknown', lease: lease.name });
          break;
        default: {
          const unreachable: never = result;
          throw new Error(`unexpected acquire result ${JSON.stringify(unreachable)}`);
        }
      }
      // Retry around renewEvery, spread ±10 % so instances refused together do not ask together again.
      await this.clock.sleep(lease.renewEveryMs * (0.9 + this.clock.random() * 0.2), signal);
    }
    this.emit({ event: 'stopped', lease: lease.name, writes: { ...this.writes } });
  }

  private async lead(epoch: number, requestedAt: number, proven: boolean): Promise<void> {
    const grant = { name: this.config.lease.name, holder: this.token, epoch };
    const tenure = new Tenure({
      grant,
      config: this.config.lease,
      renewer: this.renewer,
      clock: this.clock,
      emit: this.emit,
      grantRequestedAt: requestedAt,
      parent: this.stopping.signal,
      proven,
    });
    const state = new TenureState({ epoch, seqs: this.seqs, writes: this.writes });
    this.tenure = tenure;
    this.state = state;
    const shared = { db: this.deps.db, config: this.config, clock: this.clock, emit: this.emit };
    await Promise.all([
      tenure.renewLoop(),
      runWorkLoop(tenure, state, {
        ...shared,
        readDb: this.deps.readDb,
        job: this.job,
        everyMs: this.everyMs,
        waitUnfrozen: (signal) => this.waitUnfrozen(signal),
        stopSignal: this.stopping.signal,
        beforeSideEffect: (action, step, at) => this.beforeSideEffect(action, step, at),
      }),
      runReportLoop(tenure, state, { ...shared, reporter: this.reporter, dropping: () => this.dropping }),
    ]);
    this.state = null;
    if (tenure.reasonEnded === 'stopped' || tenure.reasonEnded === 'drained') await this.release(grant);
  }

  private async release(grant: { name: string; holder: string; epoch: number }): Promise<void> {
    try {
      const released = await this.authority.release(grant);
      if (released.kind === 'released') this.emit({ event: 'released', lease: grant.name, epoch: grant.epoch });
    } catch (error) {
      this.emit({ event: 'error', where: 'release', message: safeMessage(error) });
    }
  }

  private waitUnfrozen(signal: AbortSignal): Promise<void> {
    if (!this.frozen || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        signal.removeEventListener('abort', done);
        this.unfreeze = this.unfreeze.filter((waiter) => waiter !== done);
        resolve();
      };
      signal.addEventListener('abort', done, { once: true });
      this.unfreeze.push(done);
    });
  }

  /** Record cadence and thresholds for the status service (configuration, not authority). */
  private async register(): Promise<boolean> {
    const c = this.config;
    try {
      await registerScheduler(this.deps.db, {
        name: c.lease.name,
        everyMs: this.everyMs,
        reportEveryMs: c.reportEveryMs,
        stallAfterMs: c.stallAfterMs,
        overdueAfterMs: c.overdueAfterMs,
        labels: c.labels,
      });
      this.emit({ event: 'registered', lease: c.lease.name });
      return true;
    } catch (error) {
      this.emit({ event: 'error', where: 'register', message: safeMessage(error) });
      return false;
    }
  }
}
