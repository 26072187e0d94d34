import { describe, expect, it } from 'vitest';
import { LeaseAuthority } from './authority';
import { DEFAULT_LEASE_TIMING, isLeaseTerms, LeaseConfigError, leaseConfig, leaseTerms, TTL_CEILING_MS, TTL_FLOOR_MS } from './config';
import { INSTANCE_TOKEN_PATTERN, newInstanceToken } from './token';

describe('lease config', () => {
  it('ships conservative defaults that satisfy ttl > renewDeadline > renewEvery > 0', () => {
    const config = leaseConfig({ name: 'retention-planner' });
    expect(config).toMatchObject(DEFAULT_LEASE_TIMING);
    expect(config.ttlMs).toBeGreaterThan(config.renewDeadlineMs);
    expect(config.renewDeadlineMs).toBeGreaterThan(config.renewEveryMs);
  });

  it.each([
    [{ ttlMs: 5_000, renewEveryMs: 5_000, renewDeadlineMs: 5_000 }, 'renewDeadlineMs', /must be > renewEveryMs/],
    [{ ttlMs: 4_000, renewEveryMs: 2_000, renewDeadlineMs: 4_000 }, 'ttlMs', /must be > renewDeadlineMs/],
    [{ ttlMs: 11 * 60_000 }, 'ttlMs', /outside the server limits/],
    [{ ttlMs: 500, renewEveryMs: 100, renewDeadlineMs: 200 }, 'ttlMs', /outside the server limits/],
    [{ renewEveryMs: 0, renewDeadlineMs: 1_000 }, 'renewEveryMs', /must be > 0/],
    [{ ttlMs: 1.5 }, 'ttlMs', /whole milliseconds/],
    [{ safetyMarginMs: 10_000 }, 'safetyMarginMs', /< renewDeadlineMs/],
  ])('refuses %o naming the field', (timing, field, message) => {
    const build = () => leaseConfig({ name: 'retention-planner', ...timing });
    expect(build).toThrow(LeaseConfigError);
    expect(build).toThrow(message);
    try {
      build();
    } catch (error) {
      expect((error as LeaseConfigError).field).toBe(field);
    }
  });

  it.each(['', 'Retention Planner', 'x'.repeat(65), '-lead'])('refuses the lease name %j', (name) => {
    expect(() => leaseConfig({ name })).toThrow(/lease config: name:/);
  });
});

describe('lease terms: what acquire takes', () => {
  it('are made only by leaseTerms and leaseConfig, which check the name and the ttl range', () => {
    expect(leaseTerms({ name: 'retention-planner' })).toMatchObject({ name: 'retention-planner', ttlMs: DEFAULT_LEASE_TIMING.ttlMs });
    expect(isLeaseTerms(leaseTerms({ name: 'x', ttlMs: TTL_FLOOR_MS }))).toBe(true);
    expect(isLeaseTerms(leaseConfig({ name: 'x' }))).toBe(true);
    expect(isLeaseTerms({ name: 'x', ttlMs: 15_000 })).toBe(false);
    expect(() => leaseTerms({ name: 'x', ttlMs: TTL_FLOOR_MS - 1 })).toThrow(/lease config: ttlMs: .*outside the server limits/);
    expect(() => leaseTerms({ name: 'x', ttlMs: TTL_CEILING_MS + 1 })).toThrow(/outside the server limits/);
    expect(() => leaseTerms({ name: 'Not A Name', ttlMs: TTL_FLOOR_MS })).toThrow(/lease config: name:/);
  });

  it('a hand-made object is refused by the type and again at run time, before any statement', async () => {
    const statements: unknown[] = [];
    const authority = new LeaseAuthority({ query: async (config: unknown) => (statements.push(config), { rows: [] }) } as never);
    // @ts-expect-error — `{ name, ttlMs }` is not LeaseTerms: only leaseTerms/leaseConfig make one.
    await expect(authority.acquire({ name: 'x', ttlMs: 1 }, 'inst_00000000')).rejects.toThrow(LeaseConfigError);
    // @ts-expect-error — nor is a bare name with a ttl, the old signature.
    await expect(authority.acquire('x', 'inst_00000000', 1_000)).rejects.toThrow(/not made by leaseTerms or leaseConfig/);
    expect(statements).toEqual([]);
  });
});

describe('instance tokens', () => {
  it('are display-safe and random: unique, and every symbol used at every position', () => {
    const tokens = Array.from({ length: 2000 }, newInstanceToken);
    expect(new Set(tokens).size).toBe(tokens.length);
    for (const token of tokens) expect(token).toMatch(INSTANCE_TOKEN_PATTERN);
    // A token derived from the machine (hostname, PID) would repeat per position.
    for (let position = 5; position < 13; position++) {
      expect(new Set(tokens.map((token) => token[position])).size).toBe(36);
    }
  });
});
