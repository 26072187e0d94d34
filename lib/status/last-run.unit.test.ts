// The last run's outcome: given these facts, expect this lastRun — and health untouched by it.
import { describe, expect, it } from 'vitest';
import { project } from './project';
import { ago, facts, lease, NOW, T } from './test-fixtures';
import type { OccurrenceFacts } from './types';

const run = (over: Partial<OccurrenceFacts>): OccurrenceFacts => ({
  occurrence: 'retention-planner@2026-11-30T11:00:00Z',
  state: 'completed',
  epoch: 7,
  exitCode: null,
  endedAt: ago(60_000),
  ...over,
});

describe('lastRun', () => {
  it('given a failed newest ended occurrence, it is failed with its exit code — and health is still judged by authority and work alone', () => {
    const failed = run({ state: 'failed', exitCode: 3 });
    const status = project({ ...facts(), lastRun: { newest: failed, ended: failed } }, NOW, T);
    expect(status.lastRun).toMatchObject({ state: 'failed', exitCode: 3, occurrence: failed.occurrence });
    expect(status.lastRun.message).toContain('failed with exit code 3');
    expect(status.health).toBe(project(facts(), NOW, T).health);
  });

  it('given a completed one, succeeded; while the next runs under the current epoch, the last ended one still speaks', () => {
    const done = run({});
    const next = run({ occurrence: 'retention-planner@2026-11-30T12:00:00Z', state: 'running', endedAt: null });
    expect(project({ ...facts(), lastRun: { newest: next, ended: done } }, NOW, T).lastRun.state).toBe('succeeded');
  });

  it('given the newest occurrence still running under an epoch that lost the lease, interrupted', () => {
    const stale = run({ state: 'running', epoch: 6, endedAt: null });
    const status = project({ ...facts({ lease: lease({ epoch: 7 }) }), lastRun: { newest: stale, ended: null } }, NOW, T);
    expect(status.lastRun).toMatchObject({ state: 'interrupted', occurrence: stale.occurrence, exitCode: null });
    expect(status.lastRun.message).toContain('epoch 6 lost the lease');
  });

  it('given a released lease whose epoch left its occurrence running, interrupted — and it says released, not lost', () => {
    const left = run({ state: 'running', epoch: 7, endedAt: null });
    const status = project({ ...facts({ lease: lease({ epoch: 7, released: true }) }), lastRun: { newest: left, ended: null } }, NOW, T);
    expect(status.lastRun.state).toBe('interrupted');
    expect(status.lastRun.message).toContain('epoch 7 released the lease');
    expect(status.lastRun.message).not.toContain('lost');
  });

  it("given its epoch's lease expired with nobody after it (a paused or self-suspecting holder stopped renewing), interrupted — and it says expired", () => {
    const left = run({ state: 'running', epoch: 7, endedAt: null });
    const expired = lease({ epoch: 7, renewedAt: ago(20 * 1_000), expiresAt: ago(5_000) });
    const status = project({ ...facts({ lease: expired }), lastRun: { newest: left, ended: null } }, NOW, T);
    expect(status.authority.state).toBe('expired');
    expect(status.lastRun.state).toBe('interrupted');
    expect(status.lastRun.message).toContain("epoch 7's lease expired before it ended");
    // While the lease still holds, the same running occurrence is simply running: the last ended one speaks.
    expect(project({ ...facts(), lastRun: { newest: left, ended: null } }, NOW, T).lastRun.state).toBe('none');
  });

  it('never turns missing evidence into failed: not read, store unreadable, nothing ended yet', () => {
    const failed = run({ state: 'failed', exitCode: 1 });
    expect(project(facts(), NOW, T).lastRun.state).toBe('unknown');
    const unreadable = { ...facts(), store: { ok: false as const, lastObservedAt: ago(5_000) }, lastRun: { newest: failed, ended: failed } };
    expect(project(unreadable, NOW, T).lastRun).toMatchObject({ state: 'unknown', exitCode: null });
    expect(project({ ...facts(), lastRun: { newest: null, ended: null } }, NOW, T).lastRun.state).toBe('none');
  });
});
