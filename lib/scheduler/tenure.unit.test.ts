import { describe, expect, it } from 'vitest';
import { leaseConfig, type RenewResult } from '../lease';
import type { Clock } from './clock';
import type { RuntimeEvent } from './events';
import type { Renewer } from './renewer';
import { Tenure } from './tenure';

// Given a fake clock and a scripted authority, the holder trusts its grant
// exactly as long as the rules allow — no database, no real time.
function harness(renewals: RenewResult[]) {
  let now = 0;
  const clock: Clock = {
    now: () => now,
    random: () => 0.5,
    // A sleep moves the clock when it is due — after every promise already under way has settled —
    // unless it was cancelled by then: a renewal's deadline that its answer beat costs no time.
    sleep: async (ms, signal) => {
      await new Promise((resolve) => setImmediate(resolve));
      if (!signal?.aborted) now += ms;
    },
  };
  const calls: number[] = [];
  /** Called as each renewal starts: what the test sees of the tenure between renewals. */
  let onRenew = () => {};
  const renewer: Renewer = {
    renew: async () => {
      calls.push(now);
      onRenew();
      return renewals.shift() ?? { kind: 'lost' as const };
    },
    wait: (_minMs, ms, signal) => clock.sleep(ms, signal),
  };
  const events: RuntimeEvent[] = [];
  const config = leaseConfig({ name: 'retention-planner', ttlMs: 15_000, renewEveryMs: 5_000, renewDeadlineMs: 10_000, safetyMarginMs: 2_000 });
  const make = (proven: boolean) =>
    new Tenure({
      grant: { name: config.name, holder: 'inst_00000000', epoch: 7 },
      config,
      renewer,
      clock,
      emit: (e) => events.push(e),
      grantRequestedAt: 0,
      parent: new AbortController().signal,
      proven,
    });
  return { make, calls, events, clock, setNow: (ms: number) => (now = ms), beforeEachRenewal: (probe: () => void) => (onRenew = probe) };
}

const renewed: RenewResult = { kind: 'renewed', renewedAt: new Date(0), expiresAt: new Date(0) };

describe('tenure', () => {
  it('given a stop asked for by a listener of its loss, still ends as lost, for the reason it was lost', () => {
    const h = harness([]);
    let tenure: Tenure | null = null;
    const parent = new AbortController();
    tenure = new Tenure({
      grant: { name: 'retention-planner', holder: 'inst_00000000', epoch: 7 },
      config: leaseConfig({ name: 'retention-planner' }),
      renewer: { renew: async () => ({ kind: 'lost' as const }), wait: async () => {} },
      clock: h.clock,
      // The CLI's --once: on `lost`, stop the runtime at once (its stop signal is this tenure's parent).
      emit: (event) => event.event === 'lost' && parent.abort(),
      grantRequestedAt: 0,
      parent: parent.signal,
    });
    h.setNow(13_000);
    expect(tenure.fence()).toBeNull();
    expect(tenure.signal.aborted).toBe(true);
    expect(tenure.reasonEnded).toBe('self_suspected');
  });

  it('trusts a fresh grant until renewStart + ttl − safetyMargin, and not a moment longer', () => {
    const h = harness([]);
    const tenure = h.make(true);
    h.setNow(12_999);
    expect(tenure.fence()).toMatchObject({ epoch: 7 });
    h.setNow(13_000);
    expect(tenure.fence()).toBeNull();
    expect(h.events).toContainEqual({ event: 'lost', lease: 'retention-planner', epoch: 7, why: 'self_suspected' });
  });

  it('does not trust an adopted grant until a renewal proves it, and renews at once', async () => {
    const h = harness([renewed, { kind: 'lost' }]);
    const tenure = h.make(false);
    expect(tenure.fence()).toBeNull();
    await tenure.renewLoop();
    expect(h.calls[0]).toBe(0); // renewed immediately, not after renewEvery
    expect(h.events.at(-1)).toMatchObject({ event: 'lost', why: 'renewal_refused' });
  });

  it('stops fenced work after an unknown renewal until a later renewal proves the lease', async () => {
    const h = harness([renewed, { kind: 'unknown', cause: 'timeout' }, renewed, { kind: 'lost' }]);
    const tenure = h.make(true);
    // The fence as each renewal starts: after a proven renewal, after the unknown one, after the proof.
    const fenceBeforeRenewal: (number | null)[] = [];
    h.beforeEachRenewal(() => fenceBeforeRenewal.push(tenure.fence()?.epoch ?? null));
    await tenure.renewLoop();
    expect(h.events.map((e) => e.event)).toEqual(['renew_unknown', 'lost']);
    expect(fenceBeforeRenewal).toEqual([7, 7, null, 7]);
    expect(tenure.fence()).toBeNull(); // the refused renewal ended it
  });
});
