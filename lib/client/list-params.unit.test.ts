import { describe, expect, it } from 'vitest';
import { listSearchParams, pageSearchParams, parseListParams } from './list-params';

describe('overview list params', () => {
  it('round-trips through the page URL', () => {
    const params = { health: 'stalled' as const, search: 'retention', page: 3 };
    expect(parseListParams(new URLSearchParams(pageSearchParams(params)))).toEqual(params);
  });

  it('falls back to defaults on bad input and never throws', () => {
    expect(parseListParams({ health: 'green', page: '-4', q: ['  x  ', 'y'] })).toEqual({ health: null, search: 'x', page: 1 });
    expect(parseListParams({ page: '1e9999' })).toEqual({ health: null, search: '', page: 1 });
  });

  it('asks the API for one page of 100 by offset', () => {
    expect(listSearchParams({ health: null, search: '', page: 2 })).toBe('limit=100&offset=100');
  });
});
