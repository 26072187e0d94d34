import { describe, expect, it } from 'vitest';
import { parseTimeChoice, TIME_COOKIE, timeChoiceValue, timeCookieIn } from './time-cookie';

describe('the time cookie', () => {
  it('round-trips UTC and a zone', () => {
    expect(parseTimeChoice(timeChoiceValue({ mode: 'utc' }))).toEqual({ mode: 'utc' });
    expect(timeChoiceValue({ mode: 'local', timeZone: 'America/Argentina/Buenos_Aires' })).toBe('America%2FArgentina%2FBuenos_Aires');
    expect(parseTimeChoice('America%2FArgentina%2FBuenos_Aires')).toEqual({ mode: 'local', timeZone: 'America/Argentina/Buenos_Aires' });
  });

  it('reads anything else as absent (UTC, labelled so), never as a guess', () => {
    for (const value of [undefined, null, '', 'local', 'Mars%2FOlympus', '%E0%A4%A', 'x'.repeat(80)]) expect(parseTimeChoice(value)).toBeNull();
  });

  it('finds its value among other cookies', () => {
    expect(timeCookieIn(`a=1; ${TIME_COOKIE}=Asia%2FTokyo; b=2`)).toBe('Asia%2FTokyo');
    expect(timeCookieIn(`x${TIME_COOKIE}=utc`)).toBeNull();
    expect(timeCookieIn(undefined)).toBeNull();
  });
});
