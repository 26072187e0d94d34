// Pure pieces of lib/server: decoding, parameters, buckets, tenures, paging,
// the observer's clock and the deadline — given/when/then, no database.
import { describe, expect, it } from 'vitest';
import type { SchedulerStatus } from '../status/types';
import { judgeDurability } from '../status';
import { readWithin, StoreUnreadableError } from './store/deadline';
import { EnvError, parseBasePath, parseServerEnv } from './env';
import { DEFAULT_RETENTION, historyRetentionMs } from '../retention';
import { bucketEnds, bucketMsFor } from './asof/history';
import { buildList, sortStatuses, statusesView } from './live/list';
import { StoreObserver } from './store/observer';
import { checkName } from '../http/params';
import { parseInstant, parseListQuery } from './http/params';
import { isoFromUtc } from './live/pgtext';
import { rebuildTenures, type LeaseEventLog } from './asof/tenures';

describe('isoFromUtc', () => {
  it('reshapes PostgreSQL UTC text into ISO-8601, truncating to the millisecond like toISOString', () => {
    expect(isoFromUtc('2026-11-30 16:00:00.123456')).toBe('2026-11-30T16:00:00.123Z');
    expect(isoFromUtc('2026-11-30 16:00:00.9')).toBe('2026-11-30T16:00:00.900Z');
    expect(isoFromUtc('2026-11-30 16:00:00.12')).toBe('2026-11-30T16:00:00.120Z');
    expect(isoFromUtc('2026-11-30 16:00:00')).toBe('2026-11-30T16:00:00.000Z');
    expect(isoFromUtc('2026-11-30 16:00:00.999999')).toBe(new Date(Date.UTC(2026, 10, 30, 16, 0, 0, 999)).toISOString());
  });
});

describe('query parameters', () => {
  const q = (s: string) => parseListQuery(new URLSearchParams(s));
  it('clamps numbers and rejects what is not a number or a health', () => {
    expect(q('limit=100000&offset=-3')).toEqual({ ok: true, value: { health: [], q: undefined, limit: 500, offset: 0 } });
    expect(q('limit=0').ok && q('limit=0')).toMatchObject({ value: { limit: 1 } });
    expect(q('health=stalled,%20unknown')).toMatchObject({ ok: true, value: { health: ['stalled', 'unknown'] } });
    for (const bad of ['limit=1.5', 'limit=ten', 'offset=1e3', 'health=green', `q=${'x'.repeat(201)}`]) {
      expect(q(bad)).toMatchObject({ ok: false, error: { status: 400 } });
    }
  });
  it('accepts ISO instants with an offset only, and nothing before 2000', () => {
    expect(parseInstant('2026-11-30T16:00:00+01:00', 'at')).toEqual({ ok: true, value: Date.UTC(2026, 10, 30, 15) });
    for (const bad of ['2026-11-30', '2026-11-30T16:00:00', 'now', '', '2026-02-30T00:00:00Z']) {
      expect(parseInstant(bad, 'at')).toMatchObject({ ok: false, error: { status: 400 } });
    }
    expect(parseInstant('1999-12-31T23:59:59Z', 'at')).toMatchObject({ ok: false, error: { status: 400, code: 'invalid_parameter' } });
  });
  it('accepts any printable name up to 200 characters', () => {
    expect(checkName('retention-planner')).toEqual({ ok: true, value: 'retention-planner' });
    expect(checkName('名前 with spaces/ & %')).toMatchObject({ ok: true });
    expect(checkName('')).toMatchObject({ ok: false });
    expect(checkName('x'.repeat(201))).toMatchObject({ ok: false });
    expect(checkName('tab\there')).toMatchObject({ ok: false });
  });
});

describe('history buckets', () => {
  it('chooses a nice width giving at most 360 buckets', () => {
    expect(bucketMsFor(3_600_000)).toBe(10_000);
    expect(bucketMsFor(24 * 3_600_000)).toBe(300_000);
    expect(bucketMsFor(1_000)).toBe(5);
    for (const span of [1, 999, 61_000, 3_599_999, 7_200_001, 86_400_000]) {
      expect(bucketEnds(0, span, bucketMsFor(span)).length).toBeLessThanOrEqual(360);
    }
  });
  it('ends buckets at `to` exactly', () => {
    expect(bucketEnds(1_000, 1_025, 10)).toEqual([1_010, 1_020, 1_025]);
  });
});

describe('tenures from lease events', () => {
  const ev = (id: number, kind: LeaseEventLog['kind'], epoch: number, at: number, previousEnded: number | null = null): LeaseEventLog => ({
    id,
    kind,
    epoch,
    holder: `inst_${epoch}`,
    label: null,
    at_ms: at,
    previous_epoch: epoch > 1 && kind !== 'released' ? epoch - 1 : null,
    previous_ended_ms: previousEnded,
  });
  it('ends a tenure at its release, at the expiry a takeover reports, or at the row expiry once past', () => {
    const tenures = rebuildTenures(
      [
        ev(1, 'acquired', 1, 100),
        ev(2, 'released', 1, 200),
        ev(3, 'acquired', 2, 300, 200),
        ev(4, 'taken_over', 3, 900, 800),
        ev(5, 'taken_over', 4, 1_000, 950),
      ],
      { epoch: 4, expiresMs: 1_500, releasedMs: null },
      2_000,
    );
    expect(tenures.map((t) => [t.epoch, t.fromMs, t.toMs, t.began, t.ended])).toEqual([
      [1, 100, 200, 'acquired', 'released'],
      [2, 300, 800, 'acquired', 'expired'],
      [3, 900, 950, 'taken_over', 'expired'],
      [4, 1_000, 1_500, 'taken_over', 'expired'],
    ]);
    expect(rebuildTenures([ev(1, 'acquired', 1, 100)], { epoch: 1, expiresMs: 5_000, releasedMs: null }, 2_000)[0]!.toMs).toBeNull();
  });
});

describe('list paging', () => {
  const durability = judgeDurability(null, '2026-12-02T10:00:00.000Z');
  const status = (name: string, health: SchedulerStatus['health']) => ({ name, health }) as SchedulerStatus;
  it('counts all, filters, keeps severity-then-name order, pages', () => {
    const sorted = sortStatuses([status('b', 'idle'), status('a', 'progressing'), status('c', 'stalled'), status('a2', 'idle'), status('z', 'unknown')]);
    expect(sorted.map((s) => s.name)).toEqual(['c', 'z', 'a2', 'b', 'a']);
    const page = buildList(
      { observedAt: 'x', observation: { ok: true, lastObservedAt: 'x' }, pollIntervalMs: 2_000, view: statusesView(sorted), durability },
      { health: ['idle', 'stalled'], limit: 1, offset: 1 },
    );
    expect(page).toMatchObject({ total: 3, limit: 1, offset: 1, counts: { idle: 2, stalled: 1, progressing: 1, unknown: 1 } });
    expect(page.schedulers.map((s) => s.name)).toEqual(['a2']);
    expect(
      buildList({ observedAt: 'x', observation: { ok: true, lastObservedAt: 'x' }, pollIntervalMs: 1, view: statusesView(sorted), durability }, { q: 'A' })
        .total,
    ).toBe(2);
  });
});

describe('observer and deadline', () => {
  it('settles within the deadline when the work never does', async () => {
    const started = performance.now();
    await expect(readWithin(new Promise(() => {}), 50, 'read')).rejects.toBeInstanceOf(StoreUnreadableError);
    expect(performance.now() - started).toBeLessThan(500);
  });
  it('keeps the database time of the last success and extends it with the monotonic clock', async () => {
    let mono = 1_000;
    const observer = new StoreObserver({ readTimeoutMs: 100, monotonicMs: () => mono, wallMs: () => 42, log: () => {} });
    expect(observer.estimatedNowMs()).toBe(42);
    await observer.read(
      'ok',
      async () => 5_000_000,
      (x) => x,
    );
    mono += 2_500;
    await expect(
      observer.read(
        'bad',
        async () => Promise.reject(new Error('ECONNREFUSED')),
        () => 0,
      ),
    ).rejects.toBeInstanceOf(StoreUnreadableError);
    expect(observer.lastObservedAtMs()).toBe(5_000_000);
    expect(observer.estimatedNowMs()).toBe(5_002_500);
    expect(observer.snapshot()).toMatchObject({ ok: false, lastObservedAtMs: 5_000_000 });
  });
});

describe('environment', () => {
  it('LEASEBOARD_BASE_PATH: one spelling, or a refusal naming the variable', () => {
    expect(parseServerEnv({ DATABASE_URL: 'postgres://x', LEASEBOARD_BASE_PATH: '/ops/leaseboard' }).basePath).toBe('/ops/leaseboard');
    expect([undefined, '', ' ', '/'].map(parseBasePath)).toEqual(['', '', '', '']);
    expect(['ops/leaseboard', '/ops/leaseboard/', ' /ops/ '].map(parseBasePath)).toEqual(['/ops/leaseboard', '/ops/leaseboard', '/ops']);
    for (const bad of ['/ops leaseboard', '/ops?x', '/ops#x', '/a//b', '/a\\b']) expect(() => parseBasePath(bad)).toThrow(/LEASEBOARD_BASE_PATH/);
  });

  it('requires DATABASE_URL, defaults and clamps the rest', () => {
    expect(() => parseServerEnv({})).toThrow(/DATABASE_URL/);
    expect(parseServerEnv({ DATABASE_URL: 'postgres://x' })).toEqual({
      databaseUrl: 'postgres://x',
      readTimeoutMs: 2_000,
      pollIntervalMs: 2_000,
      listMaxAgeMs: 1_000,
      maxStandbyLagMs: 10_000,
      poolMax: 4,
      heavyPoolMax: 4,
      heavyQueueMax: 32,
      heavyReadsPer10s: 120,
      readerDatabaseUrl: 'postgres://x',
      readerRole: 'leaseboard_reader',
      alertmanagerUrl: null,
      retention: DEFAULT_RETENTION,
      basePath: '',
    });
    expect(['100ms', '5s', '10m'].map((v) => parseServerEnv({ DATABASE_URL: 'postgres://x', LEASEBOARD_MAX_STANDBY_LAG: v }).maxStandbyLagMs)).toEqual([
      100, 5_000, 600_000,
    ]);
    // The first Alertmanager is linked from the dashboard; one with credentials never is.
    expect(parseServerEnv({ DATABASE_URL: 'postgres://x', ALERTMANAGER_URL: ' http://am-1:9093/, http://am-2:9093' }).alertmanagerUrl).toBe('http://am-1:9093');
    expect(parseServerEnv({ DATABASE_URL: 'postgres://x', ALERTMANAGER_URL: 'http://user:pw@am:9093' }).alertmanagerUrl).toBeNull();
    expect(parseServerEnv({ DATABASE_URL: 'postgres://x', LEASEBOARD_READER_ROLE: '', LEASEBOARD_READER_DATABASE_URL: 'postgres://r' })).toMatchObject({
      readerDatabaseUrl: 'postgres://r',
      readerRole: null,
    });
    expect(() => parseServerEnv({ DATABASE_URL: 'postgres://x', LEASEBOARD_READER_ROLE: 'Robert"); DROP' })).toThrow(/LEASEBOARD_READER_ROLE/);
    // Out of range, or a shared list older than half a poll: refused by name, never clamped.
    expect(() => parseServerEnv({ DATABASE_URL: 'postgres://x', LEASEBOARD_MAX_STANDBY_LAG: '11m' })).toThrow(
      /^env: LEASEBOARD_MAX_STANDBY_LAG: 11m is outside 100ms–10m/,
    );
    expect(() => parseServerEnv({ DATABASE_URL: 'postgres://x', LEASEBOARD_READ_TIMEOUT: '999999ms' })).toThrow(
      /LEASEBOARD_READ_TIMEOUT: 999999ms is outside 100ms–30s/,
    );
    expect(() => parseServerEnv({ DATABASE_URL: 'postgres://x', LEASEBOARD_POLL_INTERVAL: '', LEASEBOARD_LIST_MAX_AGE: '5s' })).toThrow(
      /LEASEBOARD_LIST_MAX_AGE: 5s is more than half LEASEBOARD_POLL_INTERVAL \(2s\)/,
    );
    expect(parseServerEnv({ DATABASE_URL: 'postgres://x', LEASEBOARD_POLL_INTERVAL: '', LEASEBOARD_LIST_MAX_AGE: '1s' })).toMatchObject({
      pollIntervalMs: 2_000,
      listMaxAgeMs: 1_000,
    });
    expect(() => parseServerEnv({ DATABASE_URL: 'postgres://x', LEASEBOARD_READ_TIMEOUT: 'soon' })).toThrow(/LEASEBOARD_READ_TIMEOUT/);
    expect(() => parseServerEnv({ DATABASE_URL: 'postgres://x', LEASEBOARD_READ_TIMEOUT: '2000' })).toThrow(/LEASEBOARD_READ_TIMEOUT: "2000" has no unit/);
  });

  it('reads the retention policy once with the rest, and refuses a bad retention naming the variable', () => {
    const env = parseServerEnv({ DATABASE_URL: 'postgres://x', LEASEBOARD_RETAIN_REPORTS: '2d' });
    expect(env.retention.keepMs.reports).toBe(2 * 86_400_000);
    expect(historyRetentionMs(env.retention)).toBe(2 * 86_400_000);
    expect(() => parseServerEnv({ DATABASE_URL: 'postgres://x', LEASEBOARD_RETAIN_REPORTS: 'a week' })).toThrow(/^env: LEASEBOARD_RETAIN_REPORTS: /);
    expect(() => parseServerEnv({ DATABASE_URL: 'postgres://x', LEASEBOARD_RETAIN_RENEWALS: '400d' })).toThrow(EnvError);
  });
});
