// `leaseboard run`'s options, pure: the default lease name, and the timing scaled from --ttl.
import { describe, expect, it } from 'vitest';
import { leaseNameFor, parseRunArgs } from './run';

describe('leaseboard run options', () => {
  it('names the lease after the command when --lease is not given', () => {
    expect(leaseNameFor('./backup.sh')).toBe('backup');
    expect(leaseNameFor('/usr/local/bin/Nightly_Report.py')).toBe('nightly-report');
    expect(leaseNameFor('sh')).toBe('sh');
    expect(leaseNameFor('___')).toBe('command');
  });

  it('takes durations, scales the renewal timing from --ttl, and keeps the command line after --', () => {
    const options = parseRunArgs(['--lease', 'backup', '--every', '5m', '--ttl', '30s', '--grace', '1m', '--once', '--', 'sh', '-c', 'echo --every']);
    expect(options).toMatchObject({ lease: 'backup', everyMs: 300_000, graceMs: 60_000, once: true, command: 'sh', args: ['-c', 'echo --every'] });
    expect(options.timing).toEqual({ ttlMs: 30_000, renewEveryMs: 10_000, renewDeadlineMs: 20_000, safetyMarginMs: 4_000 });
  });
});
