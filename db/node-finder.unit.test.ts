import { describe, expect, it } from 'vitest';
import { meets, NodeFinder, NoNodeError, type NodeState } from './node-finder';
import { parseDatabaseUrl, type DatabaseNode } from './url';

const { nodes } = parseDatabaseUrl('postgres://u@a:1,b:2,c:3/db');
const PRIMARY: NodeState = { inRecovery: false, readOnly: false };
const STANDBY: NodeState = { inRecovery: true, readOnly: true };
const FENCED: NodeState = { inRecovery: false, readOnly: true };

/** Probes answered from a table that tests change; every probe is counted. */
function cluster(states: Record<string, NodeState | 'down'>) {
  const probes: string[] = [];
  const probe = async (node: DatabaseNode) => {
    probes.push(node.id);
    const state = states[node.id];
    if (state === undefined || state === 'down') throw new Error('connect ECONNREFUSED');
    return state;
  };
  return { states, probes, probe };
}

describe('which node a pool uses', () => {
  it('libpq target_session_attrs, one node state at a time', () => {
    expect([PRIMARY, STANDBY, FENCED].map((s) => meets('read-write', s))).toEqual([true, false, false]);
    expect([PRIMARY, STANDBY, FENCED].map((s) => meets('primary', s))).toEqual([true, false, true]);
    expect([PRIMARY, STANDBY, FENCED].map((s) => meets('read-only', s))).toEqual([false, true, true]);
    expect([PRIMARY, STANDBY, FENCED].map((s) => meets('standby', s))).toEqual([false, true, false]);
    expect([PRIMARY, STANDBY, FENCED].every((s) => meets('any', s))).toBe(true);
  });

  it('finds the first node that accepts writes, keeps it, and looks again only once it is suspected', async () => {
    const c = cluster({ 'node-1': STANDBY, 'node-2': 'down', 'node-3': PRIMARY });
    const changes: (string | null)[] = [];
    const finder = new NodeFinder(nodes, 'read-write', { probe: c.probe, onChange: (n) => changes.push(n?.id ?? null) });
    expect((await finder.find(Date.now() + 1_000)).id).toBe('node-3');
    expect((await finder.find(Date.now() + 1_000)).id).toBe('node-3');
    expect(c.probes).toEqual(['node-1', 'node-2', 'node-3']);
    c.states['node-3'] = 'down';
    c.states['node-1'] = PRIMARY;
    finder.suspect(nodes[1]!); // not the node in use: nothing changes
    expect(finder.current?.id).toBe('node-3');
    finder.suspect(nodes[2]!);
    expect((await finder.find(Date.now() + 1_000)).id).toBe('node-1');
    expect(changes).toEqual(['node-3', null, 'node-1']);
  });

  it('connections waiting at once share one round of probes', async () => {
    const c = cluster({ 'node-1': PRIMARY });
    const finder = new NodeFinder(nodes, 'read-write', { probe: c.probe });
    const found = await Promise.all(Array.from({ length: 20 }, () => finder.find(Date.now() + 1_000)));
    expect(new Set(found.map((n) => n.id))).toEqual(new Set(['node-1']));
    expect(c.probes).toEqual(['node-1']);
  });

  it('with no primary (a failover under way) it backs off between rounds, then finds the promoted node', async () => {
    const c = cluster({ 'node-1': 'down', 'node-2': STANDBY, 'node-3': STANDBY });
    const finder = new NodeFinder(nodes, 'read-write', { probe: c.probe, backoffMs: { first: 40, max: 160 } });
    const started = Date.now();
    setTimeout(() => (c.states['node-2'] = PRIMARY), 250);
    expect((await finder.find(Date.now() + 5_000)).id).toBe('node-2');
    const rounds = c.probes.filter((id) => id === 'node-1').length;
    // 40 + 80 + 160 + 160 … ms apart: a handful of rounds in 250 ms, not hundreds.
    expect(rounds).toBeGreaterThanOrEqual(2);
    expect(rounds).toBeLessThanOrEqual(6);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });

  it('gives up at the deadline with a known failure (nothing was sent)', async () => {
    const c = cluster({ 'node-1': STANDBY, 'node-2': STANDBY, 'node-3': 'down' });
    const finder = new NodeFinder(nodes, 'read-write', { probe: c.probe, backoffMs: { first: 50, max: 50 } });
    const error = await finder.find(Date.now() + 200).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoNodeError);
    expect(String(error)).not.toMatch(/timeout|terminated/i);
  });

  it('a single node is used without a probe: each connection checks it for itself', async () => {
    const c = cluster({ 'node-1': STANDBY });
    const single = parseDatabaseUrl('postgres://u@a:1/db').nodes;
    expect((await new NodeFinder(single, 'read-write', { probe: c.probe }).find(Date.now() + 1_000)).id).toBe('node-1');
    expect(c.probes).toEqual([]);
  });

  it('prefer-standby takes a standby, else any node that answers', async () => {
    const c = cluster({ 'node-1': PRIMARY, 'node-2': STANDBY });
    expect((await new NodeFinder(nodes, 'prefer-standby', { probe: c.probe }).find(Date.now() + 1_000)).id).toBe('node-2');
    c.states['node-2'] = 'down';
    expect((await new NodeFinder(nodes, 'prefer-standby', { probe: c.probe }).find(Date.now() + 1_000)).id).toBe('node-1');
  });
});
