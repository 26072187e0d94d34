/**
 * Lease configuration, validated where it is built: the terms of a grant
 * (name and ttl) and the holder's timing around them.
 *
 * Guarantees
 * - A `LeaseTerms` exists only as `leaseTerms` or `leaseConfig` made it (a
 *   branded type, checked again at run time by `LeaseAuthority.acquire`): its
 *   name is 1–64 of [a-z0-9-] and its ttl a whole number of ms within the
 *   server limits (1 s – 10 min, `LEASE_TTL_RANGE_MS` in db/schema.ts, the one
 *   source the database's CHECK on `leases.ttl_ms` is generated from).
 * - A `LeaseConfig` is also a `LeaseTerms`, and satisfies
 *   `ttlMs > renewDeadlineMs > renewEveryMs > 0` and `safetyMarginMs < renewDeadlineMs`.
 * - Violations throw `LeaseConfigError` naming the field.
 * Not checkable here (the sizing rule): `ttl ≥ renewEvery + worst pause
 * budget + RTT jitter + safetyMargin`.
 */
import { z } from 'zod';
import { LEASE_TTL_RANGE_MS } from '../../db/schema';

export const TTL_FLOOR_MS = LEASE_TTL_RANGE_MS.floor;
export const TTL_CEILING_MS = LEASE_TTL_RANGE_MS.ceiling;

declare const validated: unique symbol;

/** What a grant is for: the lease and how long each grant or renewal lasts. Made only by `leaseTerms` or `leaseConfig`. */
export interface LeaseTerms {
  /** Lease name, e.g. `nightly-export`. 1–64 chars of [a-z0-9-]. */
  readonly name: string;
  /** How long a grant or renewal lasts on the database clock. Default 15 s. Hazard: shorter than a GC pause means flapping leadership. */
  readonly ttlMs: number;
  readonly [validated]: true;
}

export interface LeaseConfig extends LeaseTerms {
  /** Try to renew this often. Default 5 s. */
  readonly renewEveryMs: number;
  /** Give up on a renewal attempt (outcome unknown) after this long. Default 10 s. Must lie between renewEvery and ttl. */
  readonly renewDeadlineMs: number;
  /** The holder suspects itself at renewStart + ttl − safetyMargin (monotonic clock). Default 2 s. Hazard: too small and a slow clock overlaps the next holder. */
  readonly safetyMarginMs: number;
}

/** What `leaseConfig` takes: a name, and any timing to override. */
export type LeaseConfigInput = { name: string } & Partial<Pick<LeaseConfig, 'ttlMs' | 'renewEveryMs' | 'renewDeadlineMs' | 'safetyMarginMs'>>;

export const DEFAULT_LEASE_TIMING = { ttlMs: 15_000, renewEveryMs: 5_000, renewDeadlineMs: 10_000, safetyMarginMs: 2_000 } as const;

export class LeaseConfigError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`lease config: ${field}: ${message}`);
    this.name = 'LeaseConfigError';
  }
}

export const leaseNameSchema = z
  .string()
  .min(1, 'must not be empty')
  .max(64, 'must be at most 64 characters')
  .regex(/^[a-z0-9][a-z0-9-]*$/, 'use lowercase letters, digits and dashes');

const ms = (field: string) => z.number({ error: `${field} must be a number of milliseconds` }).int(`${field} must be whole milliseconds`);

const issued = new WeakSet<object>();

/** The run-time half of the brand: true only for terms `leaseTerms` or `leaseConfig` made. */
export function isLeaseTerms(value: unknown): value is LeaseTerms {
  return typeof value === 'object' && value !== null && issued.has(value);
}

function checkMs(field: string, value: unknown): void {
  const parsed = ms(field).safeParse(value);
  if (!parsed.success) throw new LeaseConfigError(field, parsed.error.issues[0]?.message ?? 'invalid');
}

function checkedTerms(name: unknown, ttlMs: unknown): { name: string; ttlMs: number } {
  const parsedName = leaseNameSchema.safeParse(name);
  if (!parsedName.success) throw new LeaseConfigError('name', parsedName.error.issues[0]?.message ?? 'invalid');
  checkMs('ttlMs', ttlMs);
  const ttl = ttlMs as number;
  if (ttl < TTL_FLOOR_MS || ttl > TTL_CEILING_MS)
    throw new LeaseConfigError('ttlMs', `${ttl} ms is outside the server limits ${TTL_FLOOR_MS}–${TTL_CEILING_MS} ms`);
  return { name: parsedName.data, ttlMs: ttl };
}

function issue<T extends object>(value: T): T {
  const frozen = Object.freeze(value);
  issued.add(frozen);
  return frozen;
}

/** The terms of a grant (`ttlMs` default 15 s), for whoever acquires without the runtime's timing (tools, tests). */
export function leaseTerms(input: { name: string; ttlMs?: number }): LeaseTerms {
  return issue(checkedTerms(input.name, input.ttlMs ?? DEFAULT_LEASE_TIMING.ttlMs)) as LeaseTerms;
}

/** The terms and the holder's timing, defaults filled in, every relation checked. */
export function leaseConfig(input: LeaseConfigInput): LeaseConfig {
  const timing = { ...DEFAULT_LEASE_TIMING, ...stripUndefined(input) };
  const { name, ttlMs } = checkedTerms(input.name, timing.ttlMs);
  for (const field of ['renewEveryMs', 'renewDeadlineMs', 'safetyMarginMs'] as const) checkMs(field, timing[field]);
  const { renewEveryMs, renewDeadlineMs, safetyMarginMs } = timing;
  if (renewEveryMs <= 0) throw new LeaseConfigError('renewEveryMs', `must be > 0, got ${renewEveryMs}`);
  if (renewDeadlineMs <= renewEveryMs) throw new LeaseConfigError('renewDeadlineMs', `must be > renewEveryMs (${renewEveryMs}), got ${renewDeadlineMs}`);
  if (ttlMs <= renewDeadlineMs) throw new LeaseConfigError('ttlMs', `must be > renewDeadlineMs (${renewDeadlineMs}), got ${ttlMs}`);
  if (safetyMarginMs < 0 || safetyMarginMs >= renewDeadlineMs)
    throw new LeaseConfigError('safetyMarginMs', `must be ≥ 0 and < renewDeadlineMs (${renewDeadlineMs}), got ${safetyMarginMs}`);
  return issue({ name, ttlMs, renewEveryMs, renewDeadlineMs, safetyMarginMs }) as LeaseConfig;
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
