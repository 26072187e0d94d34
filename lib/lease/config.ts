/**
 * Lease timing configuration, validated where it is built.
 *
 * Guarantees: a `LeaseConfig` that exists satisfies
 * `ttlMs > renewDeadlineMs > renewEveryMs > 0`, `safetyMarginMs < renewDeadlineMs`,
 * and the server ceilings (ttl 1 s – 10 min). Violations throw
 * `LeaseConfigError` naming the field. Sizing rule (not checkable here):
 * `ttl ≥ renewEvery + worst pause budget + RTT jitter + safetyMargin`.
 */
import { z } from 'zod';

export const TTL_FLOOR_MS = 1_000;
export const TTL_CEILING_MS = 10 * 60_000;

export interface LeaseConfig {
  /** Lease name, e.g. `retention-planner`. 1–64 chars of [a-z0-9-]. */
  readonly name: string;
  /** How long a grant or renewal lasts on the database clock. Default 15 s. Hazard: shorter than a GC pause means flapping leadership. */
  readonly ttlMs: number;
  /** Try to renew this often. Default 5 s. */
  readonly renewEveryMs: number;
  /** Give up on a renewal attempt (outcome unknown) after this long. Default 10 s. Must lie between renewEvery and ttl. */
  readonly renewDeadlineMs: number;
  /** The holder suspects itself at renewStart + ttl − safetyMargin (monotonic clock). Default 2 s. Hazard: too small and a slow clock overlaps the next holder. */
  readonly safetyMarginMs: number;
}

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

export function leaseConfig(input: Partial<LeaseConfig> & { name: string }): LeaseConfig {
  const name = leaseNameSchema.safeParse(input.name);
  if (!name.success) throw new LeaseConfigError('name', name.error.issues[0]?.message ?? 'invalid');
  const config = { ...DEFAULT_LEASE_TIMING, ...stripUndefined(input), name: name.data };
  for (const field of ['ttlMs', 'renewEveryMs', 'renewDeadlineMs', 'safetyMarginMs'] as const) {
    const parsed = ms(field).safeParse(config[field]);
    if (!parsed.success) throw new LeaseConfigError(field, parsed.error.issues[0]?.message ?? 'invalid');
  }
  const { ttlMs, renewEveryMs, renewDeadlineMs, safetyMarginMs } = config;
  if (ttlMs < TTL_FLOOR_MS || ttlMs > TTL_CEILING_MS)
    throw new LeaseConfigError('ttlMs', `${ttlMs} ms is outside the server limits ${TTL_FLOOR_MS}–${TTL_CEILING_MS} ms`);
  if (renewEveryMs <= 0) throw new LeaseConfigError('renewEveryMs', `must be > 0, got ${renewEveryMs}`);
  if (renewDeadlineMs <= renewEveryMs) throw new LeaseConfigError('renewDeadlineMs', `must be > renewEveryMs (${renewEveryMs}), got ${renewDeadlineMs}`);
  if (ttlMs <= renewDeadlineMs) throw new LeaseConfigError('ttlMs', `must be > renewDeadlineMs (${renewDeadlineMs}), got ${ttlMs}`);
  if (safetyMarginMs < 0 || safetyMarginMs >= renewDeadlineMs)
    throw new LeaseConfigError('safetyMarginMs', `must be ≥ 0 and < renewDeadlineMs (${renewDeadlineMs}), got ${safetyMarginMs}`);
  return Object.freeze(config);
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
