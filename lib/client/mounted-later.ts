/**
 * Below-the-fold work out of the page's load: false on the server and at
 * hydration, true right after mount, set in a transition — React renders
 * what it gates in short, interruptible slices instead of hydrating it in
 * the load's long tasks. What it gates is not in the server's HTML: use it
 * for content no first screen shows (bench:ui measures the gain).
 */
import { startTransition, useEffect, useState } from 'react';

export function useMountedLater(): boolean {
  const [mounted, setMounted] = useState(false);
  useEffect(() => startTransition(() => setMounted(true)), []);
  return mounted;
}
