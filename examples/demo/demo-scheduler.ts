/**
 * How to start the demo's scheduler program (./scheduler.ts) as a child: the `program` of a
 * SchedulerProcess (lib/child/scheduler-process.ts). The demo supervisor starts its schedulers with it,
 * and so do the tests that need a job with real batches to freeze, pause and fence (the retention planner).
 */
export const DEMO_SCHEDULER_PROGRAM = 'examples/demo/scheduler.ts';

/** A named job runs in Leaseboard's own CLI (`leaseboard scheduler --job NAME`); no job: the demo's retention planner. */
export function schedulerProgramFor(job: string | undefined): { job: string } | { program: string } {
  return job === undefined ? { program: DEMO_SCHEDULER_PROGRAM } : { job };
}
