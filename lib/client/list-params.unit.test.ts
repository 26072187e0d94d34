import { describe, expect, it } from 'vitest';
import { DEFAULT_LIST_PARAMS, listSearchParams, pageSearchParams, parseListParams, stripsSearchParams } from './list-params';

describe('overview list params', () => {
  it('round-trips through the page URL', () => {
    const params = { health: 'stalled' as const, search: 'retention', page: 3, window: '24h' as const, order: 'worst' as const };
    expect(parseListParams(new URLSearchParams(pageSearchParams(params)))).toEqual(params);
    expect(pageSearchParams(DEFAULT_LIST_PARAMS)).toBe('');
  });

  it('falls back to defaults on bad input and never throws', () => {
    expect(parseListParams({ health: 'green', page: '-4', q: ['  x  ', 'y'], window: '1y', order: 'best' })).toEqual({ ...DEFAULT_LIST_PARAMS, search: 'x' });
    expect(parseListParams({ page: '1e9999' })).toEqual(DEFAULT_LIST_PARAMS);
  });

  it('asks the API for one page of 100 by offset, or for exactly the names of a ranked page', () => {
    expect(listSearchParams({ ...DEFAULT_LIST_PARAMS, page: 2 })).toBe('limit=100&offset=100');
    expect(listSearchParams(DEFAULT_LIST_PARAMS, ['a b', 'c'])).toBe('name=a+b&name=c&limit=100');
  });

  it('asks for strips of a page, or ranked by worst in window with the health filter as the worst', () => {
    expect(stripsSearchParams({ ...DEFAULT_LIST_PARAMS, window: '7d' }, ['a'])).toBe('window=7d&name=a');
    expect(stripsSearchParams({ ...DEFAULT_LIST_PARAMS, health: 'stalled', order: 'worst' }, null)).toBe('window=1h&worst=stalled&limit=100&offset=0');
  });
});
