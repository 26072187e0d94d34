/**
 * What a dashboard server hosts: the alert evaluator and the retention pruner,
 * each under its own lease, settings from the environment; nothing with
 * LEASEBOARD_HOST_JOBS=off; and a bad setting leaves only that job out, with a
 * line naming the variable (the dashboard still serves).
 */
import { describe, expect, it } from 'vitest';
import { hostedJobs } from './hosted-jobs';

describe('hostedJobs', () => {
  it('given no settings, then the alert evaluator every 5 s and the retention pruner every minute, each under its own lease', async () => {
    const jobs = hostedJobs({});
    expect(jobs.map(({ job, config }) => [job.name, job.everyMs, config.lease.name, config.batchWorkMs])).toEqual([
      ['leaseboard-alerts', 5_000, 'leaseboard-alerts', 0],
      ['leaseboard-retention', 60_000, 'leaseboard-retention', 0],
    ]);
    await Promise.all(jobs.map(({ job }) => job.close?.()));
  });

  it('given LEASEBOARD_HOST_JOBS=off, then none', () => {
    expect(hostedJobs({ LEASEBOARD_HOST_JOBS: 'off' })).toEqual([]);
  });

  it('given an alert timing out of range, then no evaluator (the pruner still runs), and a line naming the variable', () => {
    const lines: string[] = [];
    const jobs = hostedJobs({ LEASEBOARD_ALERT_SCHEDULER_STALLED_FOR: '99999999ms' }, (line) => lines.push(line));
    expect(jobs.map(({ job }) => job.name)).toEqual(['leaseboard-retention']);
    expect(lines).toEqual([expect.stringMatching(/leaseboard-alerts: not started: .*LEASEBOARD_ALERT_SCHEDULER_STALLED_FOR/)]);
  });

  it('given a retention out of range, then no pruner (the evaluator still runs), and a line naming the variable', async () => {
    const lines: string[] = [];
    const jobs = hostedJobs({ LEASEBOARD_RETAIN_REPORTS: '400d' }, (line) => lines.push(line));
    expect(jobs.map(({ job }) => job.name)).toEqual(['leaseboard-alerts']);
    expect(lines).toEqual([expect.stringMatching(/leaseboard-retention: not started: .*LEASEBOARD_RETAIN_REPORTS: 400d is outside 10s–90d/)]);
    await Promise.all(jobs.map(({ job }) => job.close?.()));
  });
});
