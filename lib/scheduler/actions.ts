/**
 * Action classes: every step of a job declares what it touches, and gets
 * exactly the handle that class allows (./job.ts).
 *
 * - `read_only` — reads. It gets a ReadOnlyPool: sessions that refuse writes
 *   at run time, with no way to reach a fence in its type. Safe without
 *   authority (it may read data a newer holder is changing).
 * - `pure` — plans: values in, values out; no handle at all.
 * - `fenced` — writes to this database. It gets no connection, only the
 *   statement builder (../lease/fenced-statements.ts); the runtime runs what it
 *   builds behind the current Fence, and the database refuses a stale epoch.
 * - `external` — calls outside this database. Each call carries the lease,
 *   the epoch and an idempotency key; only targets that check the epoch
 *   themselves may be declared (the runtime refuses any other).
 * - `delegated` — the work is done by something the step starts (the exec
 *   runner's child process, lib/jobs/exec). It gets the lease, the epoch and
 *   the occurrence as values and writes through the database's fence itself
 *   (its tables carry lease and epoch; the triggers refuse a stale one); the
 *   runtime tells it when the tenure ends, and it must stop its work then.
 *
 * Guarantee: a `fenced`, `external` or `delegated` step starts only with a current Fence
 * (the holder's trusted grant); without one it does not run.
 */
export type ActionClass = 'read_only' | 'pure' | 'fenced' | 'external' | 'delegated';

export type { ReadOnlyPool } from '../../db/pool';
