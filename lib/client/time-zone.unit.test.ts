import { describe, expect, it } from 'vitest';
import { formatInstant, offsetLabel } from './time-zone';

describe('zone labels are the offset, the same text wherever they are formatted', () => {
  it('writes whole, half and negative offsets, and no offset as UTC', () => {
    expect(offsetLabel(60)).toBe('GMT+1');
    expect(offsetLabel(330)).toBe('GMT+5:30');
    expect(offsetLabel(-210)).toBe('GMT-3:30');
    expect(offsetLabel(-300)).toBe('GMT-5');
    expect(offsetLabel(0)).toBe('UTC');
  });

  it('formats in a named zone with the offset that zone had at that instant (daylight saving included)', () => {
    expect(formatInstant('2026-12-02T10:16:20.000Z', 'local', { timeZone: 'Asia/Kolkata' })).toBe('2026-12-02 15:46:20 GMT+5:30');
    expect(formatInstant('2026-12-02T10:16:20.000Z', 'local', { timeZone: 'America/St_Johns' })).toBe('2026-12-02 06:46:20 GMT-3:30');
    expect(formatInstant('2026-07-02T10:16:20.000Z', 'local', { timeZone: 'Europe/Berlin' })).toBe('2026-07-02 12:16:20 GMT+2');
    expect(formatInstant('2026-12-31T23:30:00.000Z', 'local', { timeZone: 'Asia/Tokyo', seconds: false })).toBe('2027-01-01 08:30 GMT+9');
    expect(formatInstant('2026-12-31T23:30:00.000Z', 'local', { timeZone: 'Asia/Tokyo', clockOnly: true })).toBe('08:30:00 GMT+9');
  });
});
