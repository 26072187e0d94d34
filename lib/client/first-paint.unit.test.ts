import { dehydrate } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { SchedulerListResponse } from '@/lib/api/types';
import { project } from '../status';
import { NOW, T, facts, lease } from '../status/test-fixtures';
import type { Observed } from './api';
import { FIRST_PAINT_ROWS, keepFirstPaintRows } from './first-paint';
import { makeQueryClient } from './query-client';

const KEY = ['schedulers', 'list', { page: 1 }] as const;

function pageOf(rows: number): SchedulerListResponse {
  const names = Array.from({ length: rows }, (_, i) => `sched-${String(i).padStart(5, '0')}`);
  const schedulers = names.map((name) => project(facts({ name, lease: lease({ name }) }), NOW, T));
  // Only the rows matter here; the rest of the answer is carried through unchanged.
  return { total: 1_000, counts: { healthy: 1_000 }, schedulers } as unknown as SchedulerListResponse;
}

function prefetched(rows: number) {
  const client = makeQueryClient();
  client.setQueryData<Observed<SchedulerListResponse>>(KEY, { body: pageOf(rows), via: 'server' });
  return client;
}

describe('keepFirstPaintRows', () => {
  it('keeps the first rows, the whole page’s names and the rest of the answer, stale at once', () => {
    const client = prefetched(100);
    keepFirstPaintRows(client, KEY);
    const data = client.getQueryData<Observed<SchedulerListResponse>>(KEY)!;
    expect(data.body.schedulers.map((s) => s.name)).toEqual(pageOf(FIRST_PAINT_ROWS).schedulers.map((s) => s.name));
    expect(data.via === 'server' && data.pageNames).toEqual(pageOf(100).schedulers.map((s) => s.name));
    expect(data.body.total).toBe(1_000);
    expect(client.getQueryCache().find({ queryKey: KEY })!.isStaleByTime(1_000)).toBe(true);
  });

  it('embeds only those rows for hydration', () => {
    const client = prefetched(100);
    const whole = JSON.stringify(dehydrate(client)).length;
    keepFirstPaintRows(client, KEY);
    const embedded = JSON.stringify(dehydrate(client));
    expect(embedded).not.toContain(`"name":"sched-000${FIRST_PAINT_ROWS}"`);
    expect(embedded.length).toBeLessThan(whole / 3);
  });

  it('leaves a page that fits the first paint, and an answer from the browser, as they are', () => {
    const small = prefetched(FIRST_PAINT_ROWS);
    const before = small.getQueryData(KEY);
    keepFirstPaintRows(small, KEY);
    expect(small.getQueryData(KEY)).toBe(before);
    expect(small.getQueryCache().find({ queryKey: KEY })!.isStaleByTime(1_000)).toBe(false);

    const browser = makeQueryClient();
    const answer: Observed<SchedulerListResponse> = { body: pageOf(100), via: 'browser', sentAt: { mono: 0, wall: 0 } };
    browser.setQueryData(KEY, answer);
    keepFirstPaintRows(browser, KEY);
    expect(browser.getQueryData(KEY)).toBe(answer);
  });
});
