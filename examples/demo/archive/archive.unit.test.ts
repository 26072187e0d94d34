import { describe, expect, it } from 'vitest';
import { Archive, MAX_KEYS_PER_LEASE } from './server';

// Given writes with epochs, the archive keeps the rule: never lower than the highest seen for the lease.
describe('the archive’s fencing rule', () => {
  it('accepts equal or higher epochs, refuses lower ones, and keeps the newest epoch’s data per key', () => {
    const archive = new Archive();
    expect(archive.put('job', 'k1', 3, 'a', { v: 1 })).toMatchObject({ kind: 'accepted', replay: false });
    expect(archive.put('job', 'k2', 3, 'b', { v: 2 })).toMatchObject({ kind: 'accepted' });
    expect(archive.put('job', 'k1', 2, 'c', { v: 'stale' })).toEqual({ kind: 'rejected', lease: 'job', key: 'k1', epoch: 2, highestEpoch: 3 });
    // A key never written by the newer epoch is protected too: the highest is per lease.
    expect(archive.put('job', 'k3', 2, 'd', { v: 'stale' })).toMatchObject({ kind: 'rejected', highestEpoch: 3 });
    expect(archive.put('job', 'k1', 4, 'e', { v: 4 })).toMatchObject({ kind: 'accepted' });
    expect(archive.put('job', 'k2', 3, 'f', { v: 'late' })).toMatchObject({ kind: 'rejected', highestEpoch: 4 });
    expect(archive.get('job', 'k1')).toMatchObject({ epoch: 4, body: { v: 4 } });
    expect(archive.get('job', 'k2')).toMatchObject({ epoch: 3, body: { v: 2 } });
    expect(archive.get('job', 'k3')).toBeNull();
    expect(archive.stats).toEqual({ accepted: 3, rejected: 3, replays: 0 });
  });

  it('a repeat of an accepted write is a repeat; other leases are independent', () => {
    const archive = new Archive();
    archive.put('job', 'k', 5, 'same', { v: 1 });
    expect(archive.put('job', 'k', 5, 'same', { v: 1 })).toMatchObject({ kind: 'accepted', replay: true });
    expect(archive.put('other', 'k', 1, null, { v: 'x' })).toMatchObject({ kind: 'accepted', replay: false });
    expect(archive.list('job')).toMatchObject({ highestEpoch: 5, objects: [{ key: 'k', epoch: 5 }] });
    expect(archive.list('other').highestEpoch).toBe(1);
  });

  it('holds at most MAX_KEYS_PER_LEASE keys per lease, evicting the oldest written', () => {
    const archive = new Archive();
    for (let i = 0; i <= MAX_KEYS_PER_LEASE; i++) archive.put('job', `k${i}`, 1, null, i);
    expect(archive.list('job').objects).toHaveLength(MAX_KEYS_PER_LEASE);
    expect(archive.get('job', 'k0')).toBeNull();
    expect(archive.get('job', `k${MAX_KEYS_PER_LEASE}`)).not.toBeNull();
  });
});
