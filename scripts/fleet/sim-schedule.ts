/**
 * One simulated scheduler process of the fleet's generator
 * (./simulator.ts): the leases it holds and, given the time, what it sends
 * next — the same statements, batched the same way and at the same cadences
 * as a process of real SchedulerRuntimes on one pool. Pure: times in, batches
 * and decisions out (no clock, no I/O); the generator sends them.
 *
 * The library's rules it follows
 * - Renewal (lib/scheduler/tenure.ts, renewer.ts): a lease renews
 *   renewEvery after its last answer (sooner when its self-suspicion
 *   deadline, validUntil, comes first); when one leaves, every held lease
 *   past half its interval rides along: ONE leaseboard_renew_many statement
 *   (split at RENEW_MANY_MAX by the authority, as in the library). A renewal
 *   is dated from its request: renewed → validUntil = request + ttl −
 *   safetyMargin; no answer within renewDeadline or an error → unknown
 *   (retried after min(renewEvery, validUntil − now)); refused → lost. A
 *   held lease whose validUntil passes is lost (self-suspected).
 * - Reports (lib/scheduler/report-loop.ts, reporter.ts, report-rounds.ts):
 *   each held lease reports at once when granted, then at the process's next
 *   report round after its previous report was answered (the grid
 *   reportPhase + k × reportEvery; dropped: seq counted, nothing sent); the
 *   reports of a process due within one window (REPORT_WINDOW_MS, the
 *   reporter's) leave as ONE leaseboard_report_many, at most
 *   REPORT_BATCH_MAX per statement.
 * - Work (lib/scheduler/work-loop.ts with ./job.ts's job): an occurrence is
 *   claimed at its slot (every jobEvery), its cursor moves every
 *   advanceEvery (not while frozen, and a frozen lease starts no new
 *   occurrence), and it completes one advance before its slot ends.
 * - Acquisition: a lease not held tries to acquire every renewEvery.
 * Guarantees: a lease is in at most one renewal batch and one report batch
 * at a time; `pause` stops everything (as SIGSTOP does: what is due waits,
 * and is sent at once on resume); `kill` forgets every lease without a
 * release (the next holder token starts from nothing, as a new process).
 */
import { occurrenceKey } from '../../lib/lease';
import { untilNextRound } from '../../lib/scheduler/report-rounds';

export const REPORT_WINDOW_MS = 50;
export const REPORT_BATCH_MAX = 500;

export interface SimTiming {
  ttlMs: number;
  renewEveryMs: number;
  renewDeadlineMs: number;
  safetyMarginMs: number;
  reportEveryMs: number;
  jobEveryMs: number;
  advanceEveryMs: number;
}

export interface SimLease {
  name: string;
  /** The held epoch (null: not held). */
  epoch: number | null;
  /** Next acquisition attempt (when not held). */
  acquireAt: number;
  acquiring: boolean;
  /** Renewal: due at renewAt; may ride along from riderFrom; validUntil is the self-suspicion deadline. */
  renewAt: number;
  riderFrom: number;
  validUntil: number;
  /** A renewal's outcome was unknown: the lease is unproven until a later one renews it. */
  suspect: boolean;
  renewing: boolean;
  seq: number;
  /** Next report (null: one in flight). */
  reportAt: number | null;
  occurrence: string | null;
  /** The slot (epoch ms) of the occurrence in flight. */
  slotAt: number;
  cursor: number | null;
  /** The slot whose occurrence is done (completed or found completed): nothing to claim until the next. */
  doneSlot: number | null;
  advanceAt: number;
  working: boolean;
  frozen: boolean;
  dropping: boolean;
}

export interface ReportOut {
  lease: string;
  epoch: number;
  seq: number;
  occurrence: string | null;
  cursor: number | null;
}

export type RenewOutcome = { kind: 'renewed' } | { kind: 'lost' } | { kind: 'unknown' };

/** What a renewal answer meant for its lease: missed (its deadline, or not renewed) and lost (the lease ended). */
export interface RenewJudged {
  lease: string;
  missed: 'late' | 'lost' | 'unknown' | null;
  lost: 'renewal_refused' | 'self_suspected' | null;
}

export type WorkAction =
  { kind: 'claim'; lease: string; epoch: number; key: string; slotAt: number } | { kind: 'complete'; lease: string; epoch: number; key: string };

const slotOf = (now: number, everyMs: number) => Math.floor(now / everyMs) * everyMs;

export class SimProcess {
  readonly leases: SimLease[];
  paused = false;

  constructor(
    readonly index: number,
    names: readonly string[],
    public holder: string,
    private readonly timing: SimTiming,
    /** When this process starts (its leases' first acquisitions spread over one report interval from here). */
    startAt: number,
    /** The process's report grid phase (lib/scheduler/report-rounds.ts). */
    private reportPhaseMs: number,
  ) {
    this.leases = names.map((name, i) => this.fresh(name, startAt + (i * timing.reportEveryMs) / Math.max(1, names.length)));
  }

  private fresh(name: string, acquireAt: number): SimLease {
    return {
      name,
      epoch: null,
      acquireAt,
      acquiring: false,
      renewAt: Infinity,
      riderFrom: Infinity,
      validUntil: -Infinity,
      suspect: false,
      renewing: false,
      seq: 0,
      reportAt: null,
      occurrence: null,
      slotAt: 0,
      cursor: null,
      doneSlot: null,
      advanceAt: Infinity,
      working: false,
      frozen: false,
      dropping: false,
    };
  }

  get held(): number {
    return this.leases.filter((lease) => lease.epoch !== null).length;
  }

  /** A new process for the same leases (after `kill`): new holder and report phase, nothing held, starts spread from `now`. */
  restart(holder: string, now: number, reportPhaseMs: number): void {
    this.holder = holder;
    this.reportPhaseMs = reportPhaseMs;
    this.paused = false;
    this.leases.forEach((lease, i) => Object.assign(lease, this.fresh(lease.name, now + (i * this.timing.reportEveryMs) / this.leases.length)));
  }

  /** Leases due to try an acquisition now, at most `limit` (marked acquiring; the rest stay due). */
  dueAcquisitions(now: number, limit = Infinity): SimLease[] {
    if (this.paused || limit <= 0) return [];
    const due = this.leases.filter((lease) => lease.epoch === null && !lease.acquiring && lease.acquireAt <= now).slice(0, limit);
    for (const lease of due) lease.acquiring = true;
    return due;
  }

  /** The acquisition's answer: granted at `epoch` (asked at `askedAt`), or not (try again renewEvery later). */
  acquired(lease: SimLease, epoch: number | null, askedAt: number, now: number): void {
    lease.acquiring = false;
    if (epoch === null) {
      lease.acquireAt = now + this.timing.renewEveryMs;
      return;
    }
    const { renewEveryMs, ttlMs, safetyMarginMs } = this.timing;
    Object.assign(lease, {
      epoch,
      validUntil: askedAt + ttlMs - safetyMarginMs,
      renewAt: now + renewEveryMs,
      riderFrom: now + renewEveryMs / 2,
      suspect: false,
      seq: 0,
      reportAt: now,
      occurrence: null,
      cursor: null,
      working: false,
    });
  }

  /** Held leases lost to self-suspicion at `now` (their deadline passed with no proven renewal). */
  suspected(now: number): RenewJudged[] {
    if (this.paused) return [];
    const lost: RenewJudged[] = [];
    for (const lease of this.leases)
      if (lease.epoch !== null && now >= lease.validUntil) {
        this.lose(lease, now);
        lost.push({ lease: lease.name, missed: null, lost: 'self_suspected' });
      }
    return lost;
  }

  private lose(lease: SimLease, now: number): void {
    Object.assign(lease, { epoch: null, acquireAt: now + this.timing.renewEveryMs, renewAt: Infinity, reportAt: null, occurrence: null, cursor: null });
  }

  /** The renewal batch due now (marked renewing), or none: one lease due takes every lease past half its interval along. */
  dueRenewal(now: number): SimLease[] {
    if (this.paused) return [];
    const idle = this.leases.filter((lease) => lease.epoch !== null && !lease.renewing);
    if (!idle.some((lease) => lease.renewAt <= now || lease.suspect)) return [];
    const batch = idle.filter((lease) => lease.renewAt <= now || lease.suspect || lease.riderFrom <= now);
    for (const lease of batch) lease.renewing = true;
    return batch;
  }

  /** A renewal batch's answers (asked at `askedAt`, answered at `now`), judged lease by lease. */
  renewed(batch: readonly SimLease[], outcomes: readonly RenewOutcome[], askedAt: number, now: number): RenewJudged[] {
    const { renewEveryMs, renewDeadlineMs, ttlMs, safetyMarginMs } = this.timing;
    return batch.map((lease, i) => {
      lease.renewing = false;
      // A lease lost (or re-acquired) while its renewal was out is not this answer's any more.
      const judged: RenewJudged = { lease: lease.name, missed: null, lost: null };
      if (lease.epoch === null) return judged;
      const late = now - askedAt > renewDeadlineMs;
      const outcome = late ? { kind: 'unknown' as const } : outcomes[i]!;
      if (outcome.kind === 'renewed') {
        lease.validUntil = askedAt + ttlMs - safetyMarginMs;
        lease.suspect = false;
        lease.renewAt = Math.min(now + renewEveryMs, lease.validUntil);
        lease.riderFrom = now + Math.min(renewEveryMs / 2, lease.renewAt - now);
      } else if (outcome.kind === 'lost') {
        this.lose(lease, now);
        return { ...judged, missed: 'lost', lost: 'renewal_refused' };
      } else {
        lease.suspect = false; // retried after the wait below, not at once (the store may be struggling)
        lease.renewAt = now + Math.min(renewEveryMs, Math.max(0, lease.validUntil - now));
        lease.riderFrom = lease.renewAt;
        judged.missed = late ? 'late' : 'unknown';
      }
      if (now >= lease.validUntil) {
        this.lose(lease, now);
        judged.lost = 'self_suspected';
      }
      return judged;
    });
  }

  /** The reports due within the coming window, in batches of at most REPORT_BATCH_MAX (dropped ones counted, not sent). */
  dueReports(now: number): { batches: ReportOut[][]; dropped: number } {
    const out: ReportOut[] = [];
    let dropped = 0;
    if (this.paused) return { batches: [], dropped };
    for (const lease of this.leases) {
      if (lease.epoch === null || lease.reportAt === null || lease.reportAt > now) continue;
      lease.seq += 1;
      if (lease.dropping) {
        dropped += 1;
        lease.reportAt = this.nextRound(now);
        continue;
      }
      lease.reportAt = null;
      out.push({ lease: lease.name, epoch: lease.epoch, seq: lease.seq, occurrence: lease.occurrence, cursor: lease.cursor });
    }
    const batches: ReportOut[][] = [];
    for (let from = 0; from < out.length; from += REPORT_BATCH_MAX) batches.push(out.slice(from, from + REPORT_BATCH_MAX));
    return { batches, dropped };
  }

  /** A report batch answered (or failed: a gap, never retried): each lease's next report is at the process's next round. */
  reported(batch: readonly ReportOut[], now: number): void {
    const byName = new Map(this.leases.map((lease) => [lease.name, lease]));
    for (const sent of batch) {
      const lease = byName.get(sent.lease)!;
      if (lease.epoch === sent.epoch && lease.reportAt === null) lease.reportAt = this.nextRound(now);
    }
  }

  private nextRound(now: number): number {
    return now + untilNextRound(now, this.timing.reportEveryMs, this.reportPhaseMs);
  }

  /**
   * Cursors moved and the occurrence completions (`complete`) or claims (`claim`) due now, at most `limit`
   * (each lease's work marked in flight; the rest stay due). The generator asks for completions first: a
   * completion falls due an advance before its slot ends, before the next slot's claims, and a process's
   * pool serves what was queued first.
   */
  dueWork(now: number, limit: number, kind: WorkAction['kind']): WorkAction[] {
    if (this.paused) return [];
    const { jobEveryMs, advanceEveryMs } = this.timing;
    const slotAt = slotOf(now, jobEveryMs);
    const actions: WorkAction[] = [];
    for (const lease of this.leases) {
      if (lease.epoch === null || lease.working || lease.suspect) continue;
      if (lease.occurrence === null) {
        if (kind !== 'claim' || lease.frozen || lease.doneSlot === slotAt || actions.length >= limit) continue;
        lease.working = true;
        actions.push({ kind: 'claim', lease: lease.name, epoch: lease.epoch, key: occurrenceKey(lease.name, new Date(slotAt)), slotAt });
        continue;
      }
      while (kind === 'complete' && !lease.frozen && lease.advanceAt <= now) {
        const at = lease.advanceAt;
        const completes = at >= lease.slotAt + jobEveryMs - advanceEveryMs;
        if (completes && actions.length >= limit) break; // this advance, and its completion, next time
        lease.cursor = (lease.cursor ?? 0) + 1;
        lease.advanceAt += advanceEveryMs;
        // The job's rule: done once an advance is at or past one advance before the slot's end.
        if (completes) {
          lease.working = true;
          actions.push({ kind: 'complete', lease: lease.name, epoch: lease.epoch, key: lease.occurrence });
          break;
        }
      }
    }
    return actions;
  }

  /** A claim's answer: running from `cursor` (the advances start one interval on), or nothing left to run in this slot. */
  claimed(leaseName: string, epoch: number, key: string, slotAt: number, answer: { cursor: number } | 'completed' | 'failed', now: number): void {
    const lease = this.leases.find((l) => l.name === leaseName)!;
    lease.working = false;
    if (lease.epoch !== epoch) return;
    if (answer === 'completed') lease.doneSlot = slotAt;
    else if (answer !== 'failed') Object.assign(lease, { occurrence: key, slotAt, cursor: answer.cursor, advanceAt: now + this.timing.advanceEveryMs });
  }

  /** A completion's answer (or failure: the next pass claims again, as the library's does). */
  completed(leaseName: string, epoch: number, key: string, done: boolean): void {
    const lease = this.leases.find((l) => l.name === leaseName)!;
    lease.working = false;
    if (lease.epoch !== epoch || lease.occurrence !== key) return;
    lease.occurrence = null;
    lease.cursor = null;
    if (done) lease.doneSlot = lease.slotAt;
  }
}
