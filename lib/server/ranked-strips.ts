/**
 * Ranked strips answers (by worst health in the window, over every
 * scheduler) shared by identical queries for `maxAgeMs`: ranking reads every
 * scheduler, and the rollup it reads changes once per evaluator round, so
 * the pollers of one page share an answer.
 *
 * Guarantees: an answer is reused only within `maxAgeMs` of when it was
 * asked (monotonic clock); a failed answer is dropped as soon as it is known,
 * never shared after; at most PAGES_PER_READ queries are kept (more start
 * afresh).
 */
import type { StripsResponse } from '../api/types';
import type { StripsQuery } from './asof/strips';
import type { ReadResult } from './domain/result';
import { PAGES_PER_READ } from './live-answers';

type Answer = Promise<ReadResult<StripsResponse>>;

export class RankedStrips {
  /** Answers by query, with when they were asked (monotonic); failures are not kept. */
  private readonly kept = new Map<string, { atMono: number; answer: Answer }>();

  constructor(
    private readonly maxAgeMs: number,
    private readonly monotonicMs: () => number,
  ) {}

  /** The shared answer to `query`, or `read()`'s, kept for the next identical query. */
  answer(query: StripsQuery & { names: null }, read: () => Answer): Answer {
    const key = JSON.stringify([query.window, query.q, query.worst === null ? null : [...query.worst].sort(), query.limit, query.offset]);
    const kept = this.kept.get(key);
    if (kept !== undefined && this.monotonicMs() - kept.atMono <= this.maxAgeMs) return kept.answer;
    const answer = read();
    if (this.kept.size >= PAGES_PER_READ) this.kept.clear();
    this.kept.set(key, { atMono: this.monotonicMs(), answer });
    void answer.then((r) => {
      if (!r.ok && this.kept.get(key)?.answer === answer) this.kept.delete(key);
    });
    return answer;
  }
}
