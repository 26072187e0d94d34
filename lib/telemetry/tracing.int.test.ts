// Traces against a real OTLP/HTTP receiver, from real processes: a scheduler
// process (renewal batches, the occurrence, fenced writes, each with its SQL
// as child spans) and a process answering the list and detail routes through
// the app's handlers (route → status read → SQL). Nothing leaves that the
// privacy allowlist (./redact.ts) does not name; with no endpoint, tracing is off.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUrl, uniqueLease } from '../../db/testing/pools';
import { JsonLineProcess } from '../child/json-line-process';
import { poll, useSchedulers } from '../scheduler/testing/fixtures';
import { childrenOf, descendsFrom, type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from './testing/otlp-receiver';

const EXPORT_FAST = { OTEL_BSP_SCHEDULE_DELAY: '100', OTEL_SERVICE_NAME: 'leaseboard-test' };
/** What instrumentation-pg would add if the allowlist let it: host, port, user, connection string. */
const NEVER_EXPORTED = ['net.peer.name', 'net.peer.port', 'server.address', 'server.port', 'db.user', 'db.connection_string', 'db.name', 'db.namespace'];

describe('traces (OpenTelemetry over OTLP/HTTP)', () => {
  let receiver: OtlpReceiver;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
  });
  afterAll(() => receiver.close());
  const scheduler = useSchedulers(databaseUrl);

  const named = (name: string) => receiver.spans.filter((s) => s.name === name);
  /** A PostgreSQL query's span, as instrumentation-pg makes it (`db.system.name`; its pool's connects are spans too). */
  const isSql = (span: ReceivedSpan) => span.attributes['db.system.name'] === 'postgresql' && span.name.startsWith('pg.query');
  const sqlUnder = (parent: ReceivedSpan) => childrenOf(receiver.spans, parent).filter(isSql);
  const leakedKeys = (spans: ReceivedSpan[]) => [...new Set(spans.flatMap((s) => Object.keys(s.attributes)))].filter((key) => NEVER_EXPORTED.includes(key));

  it('a scheduler process exports its renewal batches, occurrence and fenced writes, each with its SQL as children', async () => {
    const lease = uniqueLease('traced');
    // No pause between a batch's plan and its write: the occurrence ends in a few statements, loaded machine or not.
    const holder = scheduler(lease, 'traced-holder', { 'batch-work': 0 }, { env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, ...EXPORT_FAST } });
    await holder.waitFor((line) => line.event === 'occurrence_completed', 90_000);
    await poll(
      async () => named('renewal batch').length,
      (n) => n > 0,
    );
    expect(await holder.stop()).toBe(0); // flushes its buffered spans on the way out

    const ours = receiver.spans.filter((s) => s.attributes['leaseboard.scheduler'] === lease);
    const occurrence = ours.find((s) => s.name.startsWith('occurrence '));
    expect(occurrence, `spans: ${receiver.spans.map((s) => s.name).join(', ')}`).toBeDefined();
    const writes = ours.filter((s) => s.name === 'fenced write' && descendsFrom(receiver.spans, s, occurrence!));
    expect(writes.length).toBeGreaterThan(0);
    for (const write of writes)
      expect(
        sqlUnder(write).map((s) => s.attributes['db.statement'] ?? s.attributes['db.query.text'] ?? s.name),
        'a fenced write is one statement',
      ).toHaveLength(1);
    expect(writes.every((w) => w.attributes['leaseboard.outcome'] === 'written')).toBe(true);

    const batches = named('renewal batch').filter((s) => s.service === 'leaseboard-test');
    expect(batches.length).toBeGreaterThan(0);
    expect(batches.some((b) => sqlUnder(b).length > 0)).toBe(true);
    const sql = sqlUnder(writes[0]!)[0]!;
    expect(String(sql.attributes['db.query.text'])).toContain('leaseboard_fence');
    expect(String(sql.attributes['db.query.text']), 'placeholders, never values').toContain('$1');

    expect(leakedKeys(receiver.spans)).toEqual([]);
    const values = JSON.stringify(receiver.spans.map((s) => s.attributes));
    expect(values).not.toContain(holder.token!);
    expect(values).not.toContain('traced-holder');
    expect(values).not.toContain(new URL(databaseUrl()).host);
  });

  function probe(scheduler: string, env: Record<string, string>): JsonLineProcess {
    return new JsonLineProcess({
      name: 'traced route probe',
      entry: 'lib/server/testing/traced-route-probe.ts',
      args: [scheduler],
      // A read timeout with room for a loaded machine: a read that timed out has no projection to trace.
      env: { DATABASE_URL: databaseUrl(), LEASEBOARD_READ_TIMEOUT: '15s', ...env },
    });
  }

  it('a route span is the parent of the status read, and the read of its SQL', async () => {
    const lease = uniqueLease('route');
    const holder = scheduler(lease, 'route-holder');
    await holder.waitFor((line) => line.event === 'acquired');
    const before = receiver.spans.length;
    const run = probe(lease, { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, ...EXPORT_FAST });
    const answer = await run.waitFor((line) => line.event === 'probed', 30_000);
    expect(answer).toMatchObject({ tracing: true, list: 200, detail: 200 });
    await run.stopped();

    const spans = await poll(
      async () => receiver.spans.slice(before),
      (got) => got.some((s) => s.name === 'route detail'),
    );
    const list = spans.find((s) => s.name === 'route list')!;
    expect(list.attributes).toMatchObject({ 'leaseboard.route': 'list', 'http.response.status_code': 200 });
    const read = childrenOf(spans, list).find((s) => s.name === 'status read');
    expect(read, 'the list route reads through the status service').toBeDefined();
    expect(childrenOf(spans, read!).some((s) => s.name === 'projection')).toBe(true);
    expect(spans.some((s) => isSql(s) && descendsFrom(spans, s, read!))).toBe(true);

    const detail = spans.find((s) => s.name === 'route detail')!;
    const detailRead = childrenOf(spans, detail).find((s) => s.name === 'status read detail');
    expect(detailRead?.attributes['leaseboard.scheduler']).toBe(lease);
    expect(spans.some((s) => isSql(s) && descendsFrom(spans, s, detailRead!))).toBe(true);
    expect(leakedKeys(spans)).toEqual([]);
  });

  it('with no endpoint set, tracing is off and nothing is sent', async () => {
    const lease = uniqueLease('untraced');
    const requestsBefore = receiver.requests;
    const run = probe(lease, { OTEL_EXPORTER_OTLP_ENDPOINT: '', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '' });
    const answer = await run.waitFor((line) => line.event === 'probed', 30_000);
    expect(answer).toMatchObject({ tracing: false, list: 200, detail: 404 });
    await run.stopped();
    expect(receiver.requests).toBe(requestsBefore);
  });
});
