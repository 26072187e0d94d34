import { describe, expect, it } from 'vitest';
import { faviconDataUrl, schedulerTabTitle, summarize, tabTitle } from './health-display';

describe('page summary, tab title and favicon', () => {
  it('names the worst health with its count', () => {
    const summary = summarize({ progressing: 7, stalled: 2, unknown: 1 }, { stale: false, storeOk: true });
    expect(summary).toEqual({ kind: 'worst', health: 'stalled', count: 2 });
    expect(tabTitle(summary)).toBe('▲ 2 stalled · Leaseboard');
  });

  it('never claims green when the browser observation is stale or the store unreadable', () => {
    expect(tabTitle(summarize({ progressing: 3 }, { stale: true, storeOk: true }))).toBe('? not observed · Leaseboard');
    expect(tabTitle(summarize({ progressing: 3 }, { stale: false, storeOk: false }))).toBe('? store unreadable · Leaseboard');
  });

  it('titles one scheduler without a count', () => {
    expect(schedulerTabTitle('retention-planner', { kind: 'worst', health: 'no_leader', count: 1 })).toBe('✕ No leader · retention-planner · Leaseboard');
  });

  it('draws a different SVG favicon per worst health', () => {
    const urls = (['stalled', 'no_leader', 'unknown', 'disabled', 'idle', 'progressing'] as const).map((health) =>
      faviconDataUrl({ kind: 'worst', health, count: 1 }),
    );
    expect(new Set(urls).size).toBe(urls.length);
    for (const url of urls) {
      expect(url.startsWith('data:image/svg+xml,')).toBe(true);
      expect(decodeURIComponent(url.slice('data:image/svg+xml,'.length))).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg".*<\/svg>$/);
    }
  });
});
