/**
 * What is built from one live read — list pages and the metrics text — built
 * once per read: the pollers of one read share one projection of their page
 * and scrapes share one metrics text (the same objects, which the HTTP layer
 * serialises once: treat them as read-only).
 *
 * Guarantees: a page is keyed by its normalised parameters (order of health
 * and names ignored), at most PAGES_PER_READ per read (more start the memo
 * afresh); everything kept goes with its read (a WeakMap on it).
 */
import type { SchedulerListResponse } from '../api/types';
import { formatSelector } from '../limits/selector';
import { normalizeListParams, type ListParams, type LiveRead } from './live/list';

/** List pages kept per live read (distinct filters and offsets); more start the memo afresh. */
export const PAGES_PER_READ = 64;

/** Prometheus text, rendered once per live read. */
export interface MetricsText {
  contentType: string;
  body: string;
}

interface ReadMemo {
  pages: Map<string, SchedulerListResponse>;
  metrics: Promise<MetricsText> | null;
}

export class LiveAnswers {
  private readonly memos = new WeakMap<LiveRead, ReadMemo>();

  /** The page of `live` for `params`: built by `build` the first time this read is asked for it. */
  page(live: LiveRead, params: ListParams, build: () => SchedulerListResponse): SchedulerListResponse {
    const memo = this.memoOf(live);
    const p = normalizeListParams(params);
    const key = JSON.stringify([
      p.health === null ? null : [...p.health].sort(),
      p.q,
      p.names === null ? null : [...p.names].sort(),
      p.selector === null ? null : formatSelector(p.selector),
      p.group,
      p.limit,
      p.offset,
    ]);
    let page = memo.pages.get(key);
    if (page === undefined) {
      page = build();
      if (memo.pages.size >= PAGES_PER_READ) memo.pages.clear();
      memo.pages.set(key, page);
    }
    return page;
  }

  /** The metrics text of `live`, rendered by `render` once per read. */
  metrics(live: LiveRead, render: () => Promise<MetricsText>): Promise<MetricsText> {
    const memo = this.memoOf(live);
    return (memo.metrics ??= render());
  }

  private memoOf(live: LiveRead): ReadMemo {
    let memo = this.memos.get(live);
    if (!memo) this.memos.set(live, (memo = { pages: new Map(), metrics: null }));
    return memo;
  }
}
