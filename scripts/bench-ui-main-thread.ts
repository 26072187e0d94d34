/**
 * Main-thread work after load, for `npm run bench:ui` (scripts/bench-ui.ts):
 * how busy a page keeps the browser's main thread once it has loaded, while
 * it polls and ticks. Not a test: it prints figures.
 *
 * Method: Playwright's Chromium (e2e/support/chromium.ts: the same executable
 * and flags as the e2e tests), unthrottled (no CPU or network throttling), a
 * phone's viewport (412 × 823 at 1.75×, touch: Lighthouse's mobile screen).
 * Open the page, wait for `load` and a settle, then record a Chromium trace
 * (CDP Tracing, categories devtools.timeline + toplevel) for a fixed span and
 * sum the top-level tasks (`RunTask`, nested ones merged) of the page's
 * renderer main thread. Reported: busy ms per second, the longest task, and
 * tasks over 50 ms (the ones that block input); and, as a cross-check from
 * another source, Performance.getMetrics `TaskDuration` over the same span.
 */
import { chromium, type Browser, type CDPSession } from '@playwright/test';
import { CHROMIUM_FLAGS, chromiumExecutable } from '../e2e/support/chromium';

export interface MainThreadOptions {
  /** After `load`, before recording (ms). */
  settleMs: number;
  /** Recorded span (ms). */
  recordMs: number;
}

export interface MainThreadFigures {
  busyMsPerSecond: number;
  longestTaskMs: number;
  tasksOver50ms: number;
  /** Performance.getMetrics TaskDuration delta over the span, per second (ms). */
  taskDurationMsPerSecond: number;
  seconds: number;
}

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: { name?: string; data?: { frames?: { processId?: number; parent?: string; url?: string }[] } };
}

const TRACE_CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel'];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function record(cdp: CDPSession, recordMs: number): Promise<{ events: TraceEvent[]; seconds: number; taskSeconds: number }> {
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (event) => events.push(...(event.value as unknown as TraceEvent[])));
  const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  const taskDuration = async () => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration')?.value ?? NaN;
  await cdp.send('Performance.enable');
  await cdp.send('Tracing.start', {
    transferMode: 'ReportEvents',
    traceConfig: { includedCategories: TRACE_CATEGORIES, recordMode: 'recordAsMuchAsPossible' },
  });
  const before = await taskDuration();
  const started = performance.now();
  await sleep(recordMs);
  const after = await taskDuration();
  const seconds = (performance.now() - started) / 1000;
  await cdp.send('Tracing.end');
  await complete;
  return { events, seconds, taskSeconds: after - before };
}

/** The page's renderer main thread: the main frame's process (from TracingStartedInBrowser), its CrRendererMain. */
function mainThreadOf(events: TraceEvent[]): { pid: number; tid: number } {
  const started = events.find((e) => e.name === 'TracingStartedInBrowser');
  const pid = started?.args?.data?.frames?.find((f) => !f.parent)?.processId;
  const threads = events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const thread = threads.find((t) => t.pid === pid);
  if (!thread) throw new Error(`bench:ui: no renderer main thread in the trace (main frame process ${pid ?? 'unknown'}, ${threads.length} renderer threads)`);
  return { pid: thread.pid, tid: thread.tid };
}

/** Top-level tasks of one thread, nested RunTasks merged into the task around them (µs). */
function topLevelTasks(events: TraceEvent[], thread: { pid: number; tid: number }): { start: number; end: number }[] {
  const tasks = events
    .filter((e) => e.ph === 'X' && e.name === 'RunTask' && e.pid === thread.pid && e.tid === thread.tid && (e.dur ?? 0) > 0)
    .map((e) => ({ start: e.ts, end: e.ts + e.dur! }))
    .sort((a, b) => a.start - b.start);
  const merged: { start: number; end: number }[] = [];
  for (const task of tasks) {
    const last = merged.at(-1);
    if (last && task.start < last.end) last.end = Math.max(last.end, task.end);
    else merged.push({ ...task });
  }
  return merged;
}

export async function measureMainThread(browser: Browser, url: string, options: MainThreadOptions): Promise<MainThreadFigures> {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true });
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load' });
    await sleep(options.settleMs);
    const cdp = await context.newCDPSession(page);
    const { events, seconds, taskSeconds } = await record(cdp, options.recordMs);
    const tasks = topLevelTasks(events, mainThreadOf(events)).map((t) => (t.end - t.start) / 1000);
    const busy = tasks.reduce((sum, ms) => sum + ms, 0);
    return {
      busyMsPerSecond: busy / seconds,
      longestTaskMs: Math.max(0, ...tasks),
      tasksOver50ms: tasks.filter((ms) => ms > 50).length,
      taskDurationMsPerSecond: (taskSeconds * 1000) / seconds,
      seconds,
    };
  } finally {
    await context.close();
  }
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROME_PATH ?? chromiumExecutable(), args: CHROMIUM_FLAGS, headless: true });
}

export function formatFigures(f: MainThreadFigures): string {
  return (
    `busy ${f.busyMsPerSecond.toFixed(1)} ms/s (trace) · longest task ${f.longestTaskMs.toFixed(0)} ms · tasks > 50 ms: ${f.tasksOver50ms}` +
    ` · TaskDuration ${f.taskDurationMsPerSecond.toFixed(1)} ms/s (cross-check) · over ${f.seconds.toFixed(1)} s`
  );
}
