import { describe, expect, it } from 'vitest';
import { StatusInputError, toIso, toMs } from './time';

describe('toMs fast path', () => {
  it('agrees with Date.parse on database-clock shapes', () => {
    const samples = [
      '2026-11-30T12:00:00Z',
      '2026-11-30T12:00:00.1Z',
      '2026-11-30T12:00:00.12Z',
      '2026-11-30T12:00:00.123Z',
      '2026-11-30T12:00:00.123456Z',
      '2024-02-29T23:59:59.999Z',
      '1970-01-01T00:00:00.000Z',
    ];
    let seed = 42;
    for (let i = 0; i < 2_000; i++) {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      samples.push(new Date(Date.UTC(2000, 0, 1) + seed * 997).toISOString());
    }
    for (const iso of samples) expect(toMs('t', iso), iso).toBe(Date.parse(iso));
  });

  it('falls back to Date.parse for other valid shapes', () => {
    expect(toMs('t', '2026-11-30T13:00:00+01:00')).toBe(Date.parse('2026-11-30T12:00:00Z'));
  });

  it.each(['', 'yesterday', '2026-13-01T00:00:00Z', '2026-11-30T12:00:00.Z', '2026-1x-30T12:00:00Z'])('refuses %j naming the field', (iso) => {
    expect(() => toMs('lease.expiresAt', iso)).toThrow(StatusInputError);
    expect(() => toMs('lease.expiresAt', iso)).toThrow(/lease\.expiresAt/);
  });

  it('formats canonical ISO', () => {
    expect(toIso(Date.parse('2026-11-30T12:00:00Z'))).toBe('2026-11-30T12:00:00.000Z');
    expect(toIso(0)).toBe('1970-01-01T00:00:00.000Z');
  });
});
