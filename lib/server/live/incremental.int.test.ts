// The incremental status read against a full read, on real PostgreSQL: random
// sequences of renewals, takeovers, releases, reports, intent, occurrences, stale-write rejections,
// deletions by retention, uncommitted transactions and plain time passing.
// After every step the list the service answers (reading only what changed)
// must equal a full read of every scheduler projected at the same instant —
// statuses, order, counts and metric rows.
import type pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { databaseUrl, forceExpire, uniqueLease, usePool } from '../../../db/testing/pools';
import { createPool } from '../../../db/pool';
import { changeIntent, fenceFor, type Grant, LeaseAuthority, leaseTerms, newInstanceToken, occurrenceKey, writeFenced } from '../../lease';
import { claimOccurrence, completeOccurrence, failOccurrence } from '../../scheduler/occurrences';
import { appendReport } from '../../scheduler/report-store';
import { expectSameAsFull } from '../testing/same-as-full-read';
import { register, serviceOn, sleep } from '../testing/seed';

/** A seeded generator, so a failure names its seed and replays. */
function rng(seed: number) {
  let x = seed >>> 0 || 1;
  const next = () => (x = (x * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  return { next, int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)), pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]! };
}

interface Held {
  grant: Grant;
  seq: number;
  reportEveryMs: number;
  occurrence: string | null;
}

describe('incremental status read (real PostgreSQL)', () => {
  const pool = usePool({ max: 6 });
  const open: pg.PoolClient[] = [];
  const side = createPool(databaseUrl(), { applicationName: 'leaseboard-test-side', max: 4 });
  afterAll(async () => {
    for (const client of open.splice(0)) {
      await client.query('ROLLBACK').catch(() => {});
      client.release();
    }
    await side.end();
  });

  const expectSameAsFullRead = (service: ReturnType<typeof serviceOn>, step: string) => expectSameAsFull(pool, service, step);

  it.each([11, 29, 47])('random change sequences (seed %i): the incremental list equals a full read after every step', async (seed) => {
    const r = rng(seed);
    const names = Array.from({ length: 6 }, () => uniqueLease('inc'));
    const held = new Map<string, Held>();
    const authority = new LeaseAuthority(pool);
    const service = serviceOn(pool, 5_000);
    // A name with an open transaction is left alone until it commits (its rows are locked).
    const pending: { client: pg.PoolClient; commitAt: number; name: string }[] = [];
    const log: string[] = [];

    const grantTo = async (name: string, ttlMs: number) => {
      const holder = newInstanceToken();
      const result = await authority.acquire(leaseTerms({ name, ttlMs: ttlMs }), holder, r.pick(['A', 'B', null]));
      if (result.kind === 'acquired')
        held.set(name, { grant: { name, holder, epoch: result.epoch }, seq: 0, reportEveryMs: r.pick([200, 1_000]), occurrence: null });
      return result.kind;
    };

    const ops: Record<string, (name: string) => Promise<string>> = {
      register: async (name) => {
        await register(pool, name, {
          everyMs: r.pick([1_000, 3_600_000]),
          reportEveryMs: r.pick([200, 1_000]),
          stallAfterMs: r.pick([700, 2_000, 60_000]),
          overdueAfterMs: r.pick([0, 500, 3_600_000]),
        });
        return 'registered';
      },
      acquire: (name) => grantTo(name, r.pick([1_000, 2_000, 15_000])),
      renew: async (name) => (held.has(name) ? (await authority.renew(held.get(name)!.grant)).kind : 'nothing held'),
      release: async (name) => {
        const h = held.get(name);
        held.delete(name);
        return h ? (await authority.release(h.grant)).kind : 'nothing held';
      },
      takeover: async (name) => {
        await forceExpire(pool, name);
        return grantTo(name, r.pick([1_000, 15_000]));
      },
      report: async (name) => {
        const h = held.get(name);
        if (!h) return 'nothing held';
        if (r.next() < 0.15) h.seq += r.int(1, 3); // lost reports: a seq jump
        if (r.next() < 0.3) h.occurrence = r.next() < 0.5 ? null : `${name}@2026-11-30T16:00:00Z`;
        await appendReport(pool, {
          lease: name,
          epoch: h.grant.epoch,
          seq: ++h.seq,
          occurrence: h.occurrence,
          cursor: r.int(0, 3),
          reportEveryMs: h.reportEveryMs,
        });
        return `reported seq ${h.seq}`;
      },
      intent: async (name) => {
        const result = await changeIntent(pool, name, { disabled: r.next() < 0.5, by: 'sre', reason: 'drill' });
        return `intent ${result.kind}`;
      },
      claim: async (name) => {
        const h = held.get(name);
        if (!h) return 'nothing held';
        const slot = new Date(Math.floor(Date.now() / 1_000) * 1_000 - r.int(0, 5) * 1_000);
        return (await claimOccurrence(pool, fenceFor(h.grant), occurrenceKey(name, slot), slot)).kind;
      },
      complete: async (name) => {
        const h = held.get(name);
        if (!h) return 'nothing held';
        const { rows } = await pool.query<{ key: string }>(`SELECT key FROM occurrences WHERE lease = $1 AND state = 'running' LIMIT 1`, [name]);
        if (!rows[0]) return 'nothing running';
        return (await writeFenced(pool, fenceFor(h.grant), (w) => [completeOccurrence(w, rows[0]!.key)])).kind;
      },
      fail: async (name) => {
        // A delegated step's command failed: the last run's outcome changes (lib/status/last-run.ts).
        const h = held.get(name);
        if (!h) return 'nothing held';
        const { rows } = await pool.query<{ key: string }>(`SELECT key FROM occurrences WHERE lease = $1 AND state = 'running' LIMIT 1`, [name]);
        if (!rows[0]) return 'nothing running';
        return (await writeFenced(pool, fenceFor(h.grant), (w) => [failOccurrence(w, rows[0]!.key, r.int(1, 255))])).kind;
      },
      reject: async (name) => {
        // A stale write refused by the database and logged: new alert evidence for the lease.
        const h = held.get(name);
        if (!h) return 'nothing held';
        return (await writeFenced(pool, fenceFor({ ...h.grant, epoch: h.grant.epoch + 1_000 }), (w) => [completeOccurrence(w, `${name}@none`)])).kind;
      },
      retention: async (name) => {
        // Deletions by retention: fenced occurrence pruning under the holder's grant, and rows of a scheduler gone.
        const h = held.get(name);
        const client = await side.connect();
        try {
          await client.query('BEGIN');
          if (h && r.next() < 0.6) {
            await client.query('SELECT leaseboard_fence($1, $2, $3)', [name, h.grant.epoch, 'retention']);
            const { rowCount } = await client.query(
              'DELETE FROM occurrences WHERE lease = $1 AND key IN (SELECT key FROM occurrences WHERE lease = $1 ORDER BY scheduled_at LIMIT 2)',
              [name],
            );
            await client.query('COMMIT');
            return `pruned ${rowCount} occurrences`;
          }
          const table = r.pick(['progress_summaries', 'scheduler_intents', 'schedulers', 'stale_write_rejections'] as const);
          if (table === 'stale_write_rejections') await client.query('SELECT leaseboard_fence($1, $2, $3)', [name, h?.grant.epoch ?? 0, 'retention']);
          const { rowCount } = await client.query(`DELETE FROM ${table} WHERE ${table === 'schedulers' ? 'name' : 'lease'} = $1`, [name]);
          await client.query('COMMIT');
          return `deleted ${rowCount} from ${table}`;
        } catch (error) {
          await client.query('ROLLBACK');
          return `retention refused (${(error as { code?: string }).code ?? 'error'})`;
        } finally {
          client.release();
        }
      },
      uncommitted: async (name) => {
        // A change whose transaction stays open across reads: invisible until it commits, then read.
        const client = await side.connect();
        open.push(client);
        await client.query('BEGIN');
        await client.query(`UPDATE leases SET renewed_at = clock_timestamp() WHERE name = $1`, [name]);
        await client.query(`UPDATE schedulers SET report_every_ms = report_every_ms + 1 WHERE name = $1`, [name]);
        pending.push({ client, commitAt: step + r.int(1, 4), name });
        return 'opened a transaction';
      },
      wait: async () => {
        const ms = r.pick([50, 300, 800]);
        await sleep(ms);
        return `waited ${ms} ms`;
      },
    };
    const weights: [keyof typeof ops, number][] = [
      ['register', 3],
      ['acquire', 4],
      ['renew', 5],
      ['release', 1],
      ['takeover', 2],
      ['report', 8],
      ['intent', 2],
      ['claim', 2],
      ['complete', 1],
      ['fail', 1],
      ['reject', 2],
      ['retention', 2],
      ['uncommitted', 1],
      ['wait', 3],
    ];
    const bag = weights.flatMap(([op, w]) => Array.from({ length: w }, () => op));

    let step = 0;
    await expectSameAsFullRead(service, 'first read');
    for (step = 1; step <= 70; step++) {
      const op = r.pick(bag);
      const name = r.pick(names.filter((n) => !pending.some((p) => p.name === n)));
      log.push(`${step} ${op} ${name}: ${await ops[op]!(name)}`);
      for (const p of pending.filter((x) => x.commitAt === step)) {
        await p.client.query('COMMIT');
        p.client.release();
        open.splice(open.indexOf(p.client), 1);
        pending.splice(pending.indexOf(p), 1);
        log.push(`${step} committed an open transaction`);
      }
      await expectSameAsFullRead(service, `seed ${seed}, after:\n${log.slice(-6).join('\n')}`);
    }
    for (const p of pending.splice(0)) {
      await p.client.query('COMMIT');
      p.client.release();
      open.splice(open.indexOf(p.client), 1);
    }
    await expectSameAsFullRead(service, `seed ${seed}, after the last commits`);
    // It read incrementally: the last applies touched only what changed.
    expect(service.index.lastApply.changed).toBeLessThan(service.index.size);
  });

  it('a TRUNCATE of a table it reads makes the next read a full one', async () => {
    const service = serviceOn(pool, 5_000);
    const name = uniqueLease('inc-trunc');
    await register(pool, name);
    await changeIntent(pool, name, { disabled: true, by: 'sre', reason: 'drill' });
    await expectSameAsFullRead(service, 'before');
    await pool.query('TRUNCATE scheduler_intents');
    await expectSameAsFullRead(service, 'after TRUNCATE scheduler_intents');
    expect(service.index.lastApply.changed).toBe(service.index.size);
  });
});
