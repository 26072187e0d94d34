// Scheduler CLI flags for tests and measurements: a takeover within seconds (no test framework imported here).
/** Short timings: ttl 3 s, renew 1 s, report 250 ms; long planning work per batch so a pause lands mid-batch. */
export const FAST_FLAGS = {
  ttl: 3_000,
  'renew-every': 1_000,
  'renew-deadline': 2_000,
  'safety-margin': 500,
  'report-every': 250,
  every: 60_000,
  'batch-size': 50,
  'batch-work': 400,
  'stall-after': 2_000,
  'overdue-after': 10_000,
};
