import { describe, expect, it } from 'vitest';
import { DEFAULT_LIST_PARAMS, listSearchParams, pageKey, pageSearchParams, parseListParams, rejectedSelector, stripsSearchParams } from './list-params';

describe('overview list params', () => {
  it('round-trips through the page URL', () => {
    const params = {
      health: 'stalled' as const,
      search: 'retention',
      selector: 'team=payments,env in (prod)',
      group: 'service',
      page: 3,
      window: '24h' as const,
      order: 'worst' as const,
    };
    expect(parseListParams(new URLSearchParams(pageSearchParams(params)))).toEqual(params);
    expect(pageSearchParams(DEFAULT_LIST_PARAMS)).toBe('');
  });

  it('falls back to defaults on bad input and never throws', () => {
    expect(parseListParams({ health: 'green', page: '-4', q: ['  x  ', 'y'], window: '1y', order: 'best' })).toEqual({ ...DEFAULT_LIST_PARAMS, search: 'x' });
    expect(parseListParams({ page: '1e9999' })).toEqual(DEFAULT_LIST_PARAMS);
  });

  it("keeps a team's view in the URL: a well-formed selector and group apply; a malformed one is rejected with the parser's words", () => {
    const link = new URLSearchParams('selector=team%3Dpayments&group=service');
    expect(parseListParams(link)).toEqual({ ...DEFAULT_LIST_PARAMS, selector: 'team=payments', group: 'service' });
    expect(rejectedSelector(link)).toBeNull();
    expect(listSearchParams(parseListParams(link))).toBe('selector=team%3Dpayments&group=service&limit=100&offset=0');
    const bad = new URLSearchParams('selector=team+in+(a&group=service');
    expect(parseListParams(bad)).toEqual({ ...DEFAULT_LIST_PARAMS, group: 'service' });
    expect(rejectedSelector(bad)).toEqual({ selector: 'team in (a', group: 'service', message: 'selector: unclosed "(" in "team in (a"' });
    expect(parseListParams({ group: 'bad key' }).group).toBe('');
    expect(rejectedSelector({ group: 'bad key' })?.message).toMatch(/^group: label key "bad key"/);
    // The page cache keeps a rejected link's page apart from the unfiltered one.
    expect(pageKey(bad)).not.toBe(pageKey(new URLSearchParams('group=service')));
    expect(pageKey(new URLSearchParams('group=service&made=up'))).toBe(pageKey(new URLSearchParams('group=service')));
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
