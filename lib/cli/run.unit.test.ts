// `leaseboard run`'s options, pure: the default lease name, and the timing scaled from --ttl.
import { afterEach, describe, expect, it, vi } from 'vitest';
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

  it('takes --label KEY=VALUE as scheduler labels (repeatable) and --label TEXT as the display label', () => {
    const options = parseRunArgs(['--label', 'team=payments', '--label', 'A', '--label', 'env=prod', '--', 'true']);
    expect(options.labels).toEqual({ env: 'prod', team: 'payments' });
    expect(options.label).toBe('A');
    expect(parseRunArgs(['--', 'true']).labels).toEqual({});
  });

  describe('refuses labels that break the rules, naming the label', () => {
    afterEach(() => vi.restoreAllMocks());
    it.each([
      { args: ['--label', 'team=pay ments'], says: '--label: label "team": the value must be' },
      { args: ['--label', 'team=a', '--label', 'team=b'], says: '--label: label "team": given twice' },
      { args: ['--label', 'x_=1'], says: '--label: label key "x_"' },
      { args: ['--label', 'A', '--label', 'B'], says: '--label: one display label' },
      { args: Array.from({ length: 33 }, (_, i) => ['--label', `k${i}=v`]).flat(), says: '--label: labels: at most 32 per scheduler' },
    ])('$says', ({ args, says }) => {
      const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
      vi.spyOn(process, 'exit').mockImplementation((code) => {
        throw new Error(`exit ${code}`);
      });
      expect(() => parseRunArgs([...args, '--', 'true'])).toThrow('exit 2');
      expect(String(stderr.mock.calls[0]?.[0])).toContain(says);
    });
  });
});
