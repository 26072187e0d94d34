import { describe, expect, it } from 'vitest';
import { statementKind, WaitSampler } from './waits';

describe('where statements wait', () => {
  it('names a statement by the protocol function it calls, else by who sent it and what it says', () => {
    expect(statementKind('leaseboard-fleet', 'SELECT * FROM leaseboard_renew_many($1, $2, $3)')).toBe('renew');
    expect(statementKind('leaseboard-fleet-sim', 'SELECT i, advanced, reported_at FROM leaseboard_report_many($1)')).toBe('report');
    expect(statementKind('leaseboard-fleet-list', 'WITH live AS (SELECT …)')).toBe('list read');
    expect(statementKind('leaseboard-scheduler', 'DELETE FROM progress_reports WHERE …')).toBe('pruner');
    expect(statementKind('leaseboard-scheduler', 'SELECT … FROM alert_rules')).toBe('evaluator');
    expect(statementKind('x', 'SELECT 1')).toBe('other (x)');
  });

  it('tallies each kind’s waits as shares and names the kinds that block it', () => {
    const sampler = new WaitSampler();
    const renew = { application_name: 'a', query: 'SELECT leaseboard_renew_many()', running_ms: 30 };
    sampler.add(
      [
        { ...renew, wait: 'Lock:transactionid', blocked_by: ['7'] },
        { ...renew, wait: null, blocked_by: null },
      ],
      new Map([['7', 'pruner']]),
    );
    sampler.add([{ ...renew, wait: 'IO:WALSync', blocked_by: null, running_ms: 90 }]);
    const [title, , row] = sampler.table();
    expect(title).toContain('2 samples');
    expect(row).toMatch(/^renew\s+3\s+1\.50\s+30\/90\/90\s+Lock:transactionid 33%, CPU 33%, IO:WALSync 33%\s+pruner ×1$/);
  });
});
