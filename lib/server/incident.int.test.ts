// The incident export on real PostgreSQL. Given one scheduler's story written through the real
// writers (epoch 1 acquired and reporting, its lease expired, epoch 2 taking over, a stale write of
// epoch 1 refused by the fence, an operator disabling it with a reason), when its report is asked
// for the range of the story, then the JSON and the Markdown name each of those in time order, each
// linked to its `?at=` moment on the scheduler's page; and bad ranges, formats and names are refused.
import { beforeAll, describe, expect, it } from 'vitest';
import { usePool } from '../../db/testing/pools';
import type { IncidentResponse } from '../api/types';
import { cancelWindow, createWindow } from '../actions/maintenance';
import { incidentRoute } from './http/handlers';
import { serviceOn } from './testing/seed';
import { writeScenario } from './testing/scenario';

const iso = (ms: number) => new Date(ms).toISOString();
const BASE = 'https://ops.example.org/lb';

describe('incident export (real PostgreSQL)', () => {
  const pool = usePool();
  const service = serviceOn(pool);
  let s: Awaited<ReturnType<typeof writeScenario>>;
  beforeAll(async () => {
    s = await writeScenario(pool);
  });

  const ask = (name: string, query: string, linkBase: string | null = BASE, basePath = '') =>
    incidentRoute(
      new Request(`http://dash.invalid/api/v1/schedulers/${encodeURIComponent(name)}/incident?${query}`),
      name,
      () => service,
      undefined,
      linkBase,
      basePath,
    );
  const span = () => `from=${iso(s.start)}&to=${iso(s.end + 1)}`;
  const link = (at: string) => `${BASE}/schedulers/${encodeURIComponent(s.name)}?at=${encodeURIComponent(at)}`;

  it('JSON: grant, lapse, takeover, the refused write and the operator with their reason, in time order, each linked to its moment', async () => {
    const response = await ask(s.name, span());
    expect(response.status).toBe(200);
    const report = (await response.json()) as IncidentResponse;
    expect(report).toMatchObject({ scheduler: s.name, from: iso(s.start), truncated: false });
    const at = report.entries.map((e) => Date.parse(e.at));
    expect(at).toEqual([...at].sort((a, b) => a - b));
    for (const e of report.entries) {
      expect(e.link).toBe(link(e.at));
      expect(Date.parse(e.at)).toBeGreaterThanOrEqual(s.start);
      expect(Date.parse(e.at)).toBeLessThanOrEqual(s.end + 1);
    }
    const find = (kind: string, text: string | RegExp) => {
      const entry = report.entries.find((e) => e.kind === kind && (typeof text === 'string' ? e.text.includes(text) : text.test(e.text)));
      expect(entry, `${kind} ${String(text)} in ${JSON.stringify(report.entries, null, 1)}`).toBeDefined();
      return entry!;
    };
    const acquired = find('holder', `\`${s.g1.holder}\` (A) acquired the lease: epoch 1`);
    const lapse = find('lapse', `Epoch 1 of \`${s.g1.holder}\` (A) expired`);
    const takeover = find('holder', `\`${s.g2.holder}\` (B) took over: epoch 1 → 2`);
    const refused = find('stale_write', /epoch 1 wrote while the lease was at 2 \(stale epoch\)/);
    const disabled = find('operator', /sre-on-call.*scheduler\.disable.*maintenance window/);
    find('health', 'Health became no_leader');
    find('health', 'Health became disabled');
    const order = [acquired, lapse, takeover, refused, disabled].map((e) => report.entries.indexOf(e));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(Date.parse(lapse.at)).toBeLessThanOrEqual(s.expiredAt);
    expect(Date.parse(takeover.at)).toBeGreaterThan(s.expiredAt);
  });

  it('Markdown: an attachment whose bullets carry the same lines and links', async () => {
    const json = (await (await ask(s.name, span())).json()) as IncidentResponse;
    const response = await ask(s.name, `${span()}&format=md`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="incident-.+\.md"$/);
    const md = await response.text();
    expect(md.startsWith(`# Incident report: ${s.name.replace(/_/g, '\\_')}\n`)).toBe(true);
    const bullets = md.split('\n').filter((l) => l.startsWith('- '));
    expect(bullets).toHaveLength(json.entries.length);
    json.entries.forEach((e, i) => expect(bullets[i]).toContain(`[${e.at}](<${e.link}>)`));
    expect(md).toContain('maintenance window');
  });

  it("without a public URL, links follow the request's origin and the served base path", async () => {
    const report = (await (await ask(s.name, span(), null, '/ops/lb')).json()) as IncidentResponse;
    expect(report.entries.length).toBeGreaterThan(0);
    for (const e of report.entries) expect(e.link.startsWith(`http://dash.invalid/ops/lb/schedulers/${encodeURIComponent(s.name)}?at=`)).toBe(true);
  });

  it('a range part of the story leaves out what happened outside it', async () => {
    const report = (await (await ask(s.name, `from=${iso(s.takenOverAt)}&to=${iso(s.end + 1)}`)).json()) as IncidentResponse;
    expect(report.entries.map((e) => e.kind)).not.toContain('lapse');
    expect(report.entries.some((e) => e.kind === 'operator')).toBe(true);
    expect(report.entries[0]).toMatchObject({ kind: 'health', text: expect.stringMatching(/^Health at the start: /) });
  });

  it('a maintenance window that covered the scheduler: in progress at the start, then cancelled; one covering others is not named', async () => {
    const actor = { by: 'ops', reason: 'database upgrade', identifiedBy: 'token' as const };
    const spec = { startsAtMs: s.start - 60_000, endsAtMs: Date.now() + 3_600_000, weekly: false };
    const covering = await createWindow(pool, { ...spec, selector: null, schedulers: [s.name] }, actor);
    const elsewhere = await createWindow(pool, { ...spec, selector: `team=nobody-${s.name}`, schedulers: null }, actor);
    if (covering.kind !== 'changed' || elsewhere.kind !== 'changed') throw new Error(`windows not created: ${covering.kind}, ${elsewhere.kind}`);
    const cancelled = await cancelWindow(pool, covering.window.id, { ...actor, reason: 'upgrade done' });
    if (cancelled.kind !== 'changed') throw new Error(`window not cancelled: ${cancelled.kind}`);
    try {
      const report = (await (await ask(s.name, `from=${iso(s.start)}&to=${iso(Date.now() + 60_000)}`)).json()) as IncidentResponse;
      const lines = report.entries.filter((e) => e.kind === 'maintenance');
      expect(lines).toEqual([
        {
          at: iso(s.start),
          kind: 'maintenance',
          text: `In maintenance at the start: Maintenance window #${covering.window.id} (covers \`names this scheduler\`), open since ${iso(spec.startsAtMs)}, “database upgrade” (ops)`,
          link: link(iso(s.start)),
        },
        {
          at: cancelled.window.cancelledAt,
          kind: 'maintenance',
          text: `Maintenance window #${covering.window.id} (covers \`names this scheduler\`) cancelled: its alerts are delivered again`,
          link: link(cancelled.window.cancelledAt!),
        },
      ]);
    } finally {
      await cancelWindow(pool, elsewhere.window.id, actor);
    }
  });

  it.each([
    ['a range longer than 31 days', () => `from=${iso(s.end - 32 * 86_400_000)}&to=${iso(s.end)}`, 400, 'range_too_long'],
    ['to before from', () => `from=${iso(s.end)}&to=${iso(s.start)}`, 400, 'invalid_span'],
    ['from in the future', () => `from=${iso(s.end + 3_600_000)}&to=${iso(s.end + 7_200_000)}`, 400, 'invalid_span'],
    ['no from', () => `to=${iso(s.end)}`, 400, 'invalid_parameter'],
    ['a malformed to', () => `from=${iso(s.start)}&to=yesterday`, 400, 'invalid_parameter'],
    ['an unknown format', () => `${span()}&format=pdf`, 400, 'invalid_parameter'],
    ['a from older than the history kept', () => `from=${iso(s.end - 20 * 86_400_000)}&to=${iso(s.end)}`, 410, 'outside_retention'],
  ])('%s → %i %s', async (_why, query, status, code) => {
    const response = await ask(s.name, query());
    expect(response.status).toBe(status);
    expect(await response.json()).toMatchObject({ error: { code } });
  });

  it('an unknown scheduler → 404, also as Markdown (errors are always JSON)', async () => {
    for (const format of ['json', 'md']) {
      const response = await ask(`${s.name}-nobody`, `${span()}&format=${format}`);
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ error: { code: 'unknown_scheduler' } });
    }
  });
});
