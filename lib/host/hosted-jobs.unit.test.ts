/**
 * What a dashboard server hosts: the alert evaluator under its own lease,
 * settings from the environment; nothing with LEASEBOARD_HOST_JOBS=off; and a
 * bad alert setting leaves the evaluator out with a line naming the variable
 * (the dashboard still serves).
 */
import { describe, expect, it } from 'vitest';
import { hostedJobs } from './hosted-jobs';

describe('hostedJobs', () => {
  it('given no settings, then the alert evaluator, every 5 s, under the lease leaseboard-alerts', async () => {
    const jobs = hostedJobs({});
    expect(jobs.map(({ job, config }) => [job.name, job.everyMs, config.lease.name, config.batchWorkMs])).toEqual([
      ['leaseboard-alerts', 5_000, 'leaseboard-alerts', 0],
    ]);
    await Promise.all(jobs.map(({ job }) => job.close?.()));
  });

  it('given LEASEBOARD_HOST_JOBS=off, then none', () => {
    expect(hostedJobs({ LEASEBOARD_HOST_JOBS: 'off' })).toEqual([]);
  });

  it('given an alert timing out of range, then no evaluator, and a line naming the variable', () => {
    const lines: string[] = [];
    expect(hostedJobs({ LEASEBOARD_ALERT_SCHEDULER_STALLED_FOR_MS: '99999999' }, (line) => lines.push(line))).toEqual([]);
    expect(lines).toEqual([expect.stringMatching(/not started: .*LEASEBOARD_ALERT_SCHEDULER_STALLED_FOR_MS/)]);
  });
});
