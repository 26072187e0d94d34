/**
 * The batching renewer, with a scripted authority and a fake clock: what is
 * asked in one turn leaves as one batch, waiting tenures past half their
 * interval ride along (and those before it do not), every caller gets its
 * own result or the statement's error, and nothing is left registered.
 */
import { describe, expect, it } from 'vitest';
import type { Grant, RenewResult } from '../lease';
import { BatchRenewer } from './renewer';
import { fakeClock } from './testing/fake-clock';

const renewed: RenewResult = { kind: 'renewed', renewedAt: new Date(0), expiresAt: new Date(15_000) };
const grant = (name: string): Grant => ({ name, holder: 'inst_00000000', epoch: 1 });

function harness(answer: (grants: readonly Grant[]) => RenewResult[] | Promise<RenewResult[]> = (g) => g.map(() => renewed)) {
  const { clock, advance } = fakeClock();
  const batches: string[][] = [];
  const renewer = new BatchRenewer(
    {
      renewMany: async (grants) => {
        batches.push(grants.map((g) => g.name));
        return answer(grants);
      },
    },
    clock,
  );
  return { renewer, batches, advance, riders: () => (renewer as unknown as { riders: Set<unknown> }).riders.size };
}

describe('BatchRenewer', () => {
  it('sends what is asked in one turn as ONE batch, and answers each caller with its own result', async () => {
    const h = harness((grants) => grants.map((g) => (g.name === 'b' ? { kind: 'lost' } : renewed)));
    const results = await Promise.all(['a', 'b', 'c'].map((n) => h.renewer.renew(grant(n))));
    expect(h.batches).toEqual([['a', 'b', 'c']]);
    expect(results.map((r) => r.kind)).toEqual(['renewed', 'lost', 'renewed']);
  });

  it('wakes tenures waiting past their minimum to ride along; those before it keep waiting', async () => {
    const h = harness();
    const never = new AbortController().signal;
    const order: string[] = [];
    // b has waited long enough to ride at once (min 0); c may ride only after 2,500 ms.
    const b = h.renewer.wait(0, 5_000, never).then(() => h.renewer.renew(grant('b')).then(() => order.push('b')));
    const c = h.renewer.wait(2_500, 5_000, never).then(() => h.renewer.renew(grant('c')).then(() => order.push('c')));
    await h.renewer.renew(grant('a'));
    await b;
    expect(h.batches).toEqual([['a', 'b']]);
    expect(order).toEqual(['b']);
    h.advance(2_500);
    await h.renewer.renew(grant('a'));
    await c;
    expect(h.batches).toEqual([
      ['a', 'b'],
      ['a', 'c'],
    ]);
    expect(h.riders()).toBe(0);
  });

  it('an error of the statement reaches every caller of the batch', async () => {
    const h = harness(() => Promise.reject(new Error('lease: renew: boom')));
    const results = await Promise.allSettled([h.renewer.renew(grant('a')), h.renewer.renew(grant('b'))]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });

  it('a wait aborted by its tenure returns at once and leaves no rider behind', async () => {
    const h = harness();
    const stop = new AbortController();
    const waiting = h.renewer.wait(1_000, 5_000, stop.signal);
    expect(h.riders()).toBe(1);
    stop.abort();
    await waiting;
    expect(h.riders()).toBe(0);
  });
});
