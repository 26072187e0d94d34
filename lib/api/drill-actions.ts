/**
 * The fault drills an operator may apply to a supervised scheduler process from the dashboard
 * (freeze progress, drop reports, pause, pause mid-write, kill, restart, stop): part of the v1
 * contract (the drill route's `{action}` and the audit's `drill`). A supervisor that offers them —
 * the demo's, examples/demo/supervisor.ts — applies them; each is an audited operator action.
 */
export const DRILL_ACTIONS = ['freeze', 'unfreeze', 'drop-reports', 'resume-reports', 'pause', 'resume', 'pause-mid-write', 'kill', 'restart', 'stop'] as const;
