import { describe, expect, it } from 'vitest';
import { DEFAULT_LEASE_TIMING, LeaseConfigError, leaseConfig } from './config';
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
