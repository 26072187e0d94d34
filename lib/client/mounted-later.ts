/**
 * Below-the-fold work out of the page's load. React slices a transition's
 * render, but not its commit (DOM insertion, layout effects): a hundred rows,
 * or every section below a first screen, mounted at once are one long task
 * on a phone. What this gates is not in the server's HTML: use it for
 * content no first screen shows (bench:ui measures the gain).
 */
import { startTransition, useEffect, useState } from 'react';

/**
 * How many of a list's items to render: `first` on the server and at
 * hydration, then `step` more per transition, each started in a task of its
 * own after the previous one committed, until all `total` show — short
 * tasks with input and paint between them.
 */
export function useRenderedCount(total: number, first: number, step: number): number {
  const [count, setCount] = useState(first);
  useEffect(() => {
    if (count >= total) return;
    const timer = setTimeout(() => startTransition(() => setCount((c) => c + step)), 0);
    return () => clearTimeout(timer);
  }, [count, total, step]);
  return Math.min(count, total);
}

/**
 * False on the server and at hydration, true from a task of its own right after mount: for work that can wait a
 * task — the header's own polls (session, alert counts), the demo panel's — so that their first fetches are not
 * started in hydration's effects, one long task with the page's own queries.
 */
export function useAfterMount(): boolean {
  return useRenderedCount(1, 0, 1) === 1;
}
