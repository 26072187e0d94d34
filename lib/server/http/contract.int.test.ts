// The contract test: live responses of EVERY route and EVERY documented status
// (errors included) are validated with ajv against the OpenAPI document the
// service serves (generated from lib/api/schemas.ts). Given a real database
// with one scheduler, and a dead endpoint for the 503s, when each route is
// called, then its status is documented for that route, its media type and
// Cache-Control are the documented ones, and its body matches the schema.
// Drift either way fails: an undocumented answer, or a documented status no
// case produces.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../db/free-port';
import { createPool } from '../../../db/pool';
import { uniqueLease, usePool } from '../../../db/testing/pools';
import type { StatusService } from '../service';
import type { Condition } from '../../api/types';
import { acquire, register, reporter, serviceOn } from '../testing/seed';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { alertModeRoute, intentRoute, labelsRoute, runNowRoute, type ActionDeps } from '../../actions/http';
import { createReportTokenRoute, revokeReportTokenRoute } from '../../actions/report-tokens';
import { tokenRefusals } from '../../http/token-refusals';
import { reportRoute } from '../../ingest/report-route';
import { REPORT_TOKENS_PER_SCHEDULER } from '../../ingest/tokens';
import { sessionRoute, signInRoute, signOutRoute } from '../../actions/session-routes';
import { oidcCallbackRoute, oidcLoginRoute } from '../../actions/oidc-routes';
import { createServiceTokenRoute, listServiceTokensRoute, revokeServiceTokenRoute } from '../../actions/service-tokens';
import { CLIENT_ID, CLIENT_SECRET, signInAtProvider, startProvider } from '../../auth/oidc/testing/provider';
import { signInLimiter } from '../../actions/sign-in-limit';
import { pgSessionStore } from '../../auth/session-store';
import { parseProxyTrust } from '../../http/proxies';
import { alertsRoute } from './alerts-route';
import { parseAuthConfig } from '../../auth/config';
import { auditRoute } from './audit-route';
import { maintenanceListRoute } from './maintenance-route';
import { bulkIntentRoute, cancelWindowRoute, createWindowRoute, editWindowRoute, teamOwnerRoute } from '../../actions/fleet-routes';
import {
  detailRoute,
  groupReliabilityRoute,
  healthzRoute,
  historyRoute,
  incidentRoute,
  listRoute,
  metricsRoute,
  openApiRoute,
  reliabilityRoute,
  runsRoute,
  stripsRoute,
  upcomingRoute,
} from './handlers';
import { heavyReadGate } from './heavy-gate';
import type { OpenApiDocument } from './openapi';

type Method = 'get' | 'post' | 'delete' | 'put';
type Operation = {
  responses: Record<string, { headers?: Record<string, { schema: { const?: string } }>; content?: Record<string, { schema?: { $ref?: string } }> }>;
};

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
const EXPORTED_METHOD = new RegExp(`^export\\s+(?:async\\s+)?(?:function|const|let)\\s+(${METHODS.join('|')})\\b`, 'gm');

/** `method path` of every handler bound under app/api, the path as the OpenAPI document spells it ([name] → {name}). */
function appOperations(dir = path.join(process.cwd(), 'app/api'), prefix = '/api'): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (!statSync(full).isDirectory()) continue;
    if (entry === 'demo') continue; // the demo supervisor is not part of the v1 status API
    const route = `${prefix}/${entry.replace(/^\[(.+)\]$/, '{$1}')}`;
    if (readdirSync(full).includes('route.ts')) {
      const source = readFileSync(path.join(full, 'route.ts'), 'utf8');
      // Only `export function GET` and its like are recognised: another spelling of a handler would slip past this check.
      expect(source, `${route}/route.ts exports its handlers as functions`).not.toMatch(/^export\s*\{/m);
      const methods = [...source.matchAll(EXPORTED_METHOD)].map((match) => match[1]!.toLowerCase());
      expect(methods, `${route}/route.ts binds a method`).not.toEqual([]);
      out.push(...methods.map((method) => `${method} ${route}`));
    }
    out.push(...appOperations(full, route));
  }
  return out;
}

const mediaType = (value: string | null) => (value ?? '').split(';')[0]!.trim();

describe('OpenAPI contract: live responses of every route against the served document', () => {
  const pool = usePool();
  const name = uniqueLease('contract');
  let live: StatusService;
  let dead: StatusService;
  let deadPool: pg.Pool;
  let doc: OpenApiDocument;
  let ajv: Ajv2020;
  const seen = new Set<string>();

  let r: ReturnType<typeof reporter>;

  beforeAll(async () => {
    await register(pool, name);
    r = reporter(pool, await acquire(pool, name));
    await r.report(`${name}@2026-01-01T00:00:00Z`, 1);
    await r.report(`${name}@2026-01-01T00:00:00Z`, 2);
    live = serviceOn(pool);
    // Nothing listens on this port: every read is refused.
    deadPool = createPool(`postgres://nobody:x@127.0.0.1:${await freePort()}/nothing`, {
      applicationName: 'leaseboard-test-dead',
      statementTimeoutMs: 500,
      connectTimeoutMs: 500,
      max: 2,
    });
    dead = serviceOn(deadPool, 500);
    const served = await openApiRoute();
    expect(served.status).toBe(200);
    doc = (await served.json()) as OpenApiDocument;
    ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
    addFormats(ajv);
    ajv.addKeyword('components');
    ajv.addSchema({ $id: 'https://leaseboard.invalid/openapi.json', components: doc.components });
  });
  afterAll(() => deadPool.end());

  /** Checks one live response against the document; returns its parsed JSON body (if JSON). */
  async function conforms(route: string, response: Response, method: Method = 'get'): Promise<unknown> {
    const operation = (doc.paths as unknown as Record<string, Partial<Record<Method, Operation>>>)[route]?.[method];
    expect(operation, `${method.toUpperCase()} ${route} is documented`).toBeDefined();
    const documented = operation!.responses[String(response.status)];
    expect(documented, `${method.toUpperCase()} ${route} answered ${response.status}, which the document does not list`).toBeDefined();
    seen.add(`${method} ${route} ${response.status}`);
    if (documented!.content === undefined) {
      // A redirect: no body, a Location.
      expect(response.headers.get('location'), `${route} ${response.status} has a Location`).toBeTruthy();
      return null;
    }
    const content = documented!.content ?? {};
    const media = Object.keys(content).find((m) => mediaType(m) === mediaType(response.headers.get('content-type')));
    expect(media, `${route} ${response.status}: content type ${response.headers.get('content-type')} is not documented`).toBeDefined();
    const cacheControl = documented!.headers?.['Cache-Control']?.schema.const;
    if (cacheControl !== undefined) expect(response.headers.get('cache-control')).toBe(cacheControl);
    if (mediaType(media!) !== 'application/json') return response.text();
    const body: unknown = await response.json();
    const schemaRef = content[media!]!.schema?.$ref;
    if (schemaRef !== undefined) {
      const validate = ajv.getSchema(`https://leaseboard.invalid/openapi.json${schemaRef}`);
      expect(validate, `${schemaRef} compiles`).toBeDefined();
      const ok = validate!(body);
      expect(ok ? [] : validate!.errors, `${route} ${response.status} body vs ${schemaRef}`).toEqual([]);
    }
    return body;
  }

  /** Operator actions with OpenID Connect sign-in at `issuer`, for the dashboard at `site`. */
  const oidcDeps = (site: string, issuer: string, env: Record<string, string>): ActionDeps => ({
    auth: parseAuthConfig({
      LEASEBOARD_PUBLIC_URL: site,
      LEASEBOARD_OIDC_ISSUER: issuer,
      LEASEBOARD_OIDC_CLIENT_ID: CLIENT_ID,
      LEASEBOARD_OIDC_CLIENT_SECRET: CLIENT_SECRET,
      ...env,
    }),
    sessions: pgSessionStore(pool),
    signIns: signInLimiter(() => {}),
    writer: pool,
    nowMs: () => Date.now(),
    basePath: '',
  });

  const base = 'http://x/api/v1/schedulers';
  const get = (url: string) => new Request(url);

  it('documents exactly the routes and methods bound under app/api', () => {
    const documented = Object.entries(doc.paths!).flatMap(([route, item]) => Object.keys(item).map((method) => `${method} ${route}`));
    expect(documented.sort()).toEqual(appOperations().sort());
  });

  it('every component schema compiles under strict ajv', () => {
    for (const id of Object.keys(doc.components!.schemas!)) {
      expect(ajv.getSchema(`https://leaseboard.invalid/openapi.json#/components/schemas/${id}`), id).toBeDefined();
    }
  });

  it('/api/v1/schedulers: 200 (store readable and not), 400', async () => {
    const route = '/api/v1/schedulers';
    const page = (await conforms(route, await listRoute(get(`${base}?limit=5&q=${name}`), () => live))) as { schedulers: { name: string }[] };
    expect(page.schedulers.map((s) => s.name)).toEqual([name]);
    await conforms(route, await listRoute(get(`${base}?health=stalled,progressing,idle`), () => live));
    const down = (await conforms(route, await listRoute(get(base), () => dead))) as { observation: { ok: boolean } };
    expect(down.observation.ok).toBe(false);
    await conforms(route, await listRoute(get(`${base}?limit=ten`), () => live));
    const selected = (await conforms(
      route,
      await listRoute(get(`${base}?q=${name}&selector=${encodeURIComponent('team notin (x),!legacy')}`), () => live),
    )) as {
      schedulers: { name: string; labels: Record<string, string> }[];
    };
    expect(selected.schedulers.map((s) => [s.name, s.labels])).toEqual([[name, {}]]);
    await conforms(route, await listRoute(get(`${base}?selector=${encodeURIComponent('team in (a')}`), () => live));
    const grouped = (await conforms(route, await listRoute(get(`${base}?q=${name}&group=service`), () => live))) as {
      groups: { value: string | null; total: number }[];
    };
    expect(grouped.groups.map((g) => [g.value, g.total])).toEqual([[null, 1]]);
    await conforms(route, await listRoute(get(`${base}?group=${encodeURIComponent('bad key')}`), () => live));
  });

  it('/api/v1/schedulers/{name}: 200 live and as of, 400, 404, 410, 503', async () => {
    const route = '/api/v1/schedulers/{name}';
    type Detail = { observedAt: string; asOf: string | null; status: { authority: { acquiredAt: string } }; conditions: Condition[] };
    // Its reports are 1 s apart: report (and advance) again, so the setup and the cases before this one, however slow on a
    // loaded machine, never make it silent.
    await r.report(`${name}@2026-01-01T00:00:00Z`, 3);
    const one = (await conforms(route, await detailRoute(get(`${base}/${name}`), name, () => live))) as Detail;
    // The holder reports and advanced: authority and progress told apart, with the tenure's start as evidence.
    expect(one.conditions.map((c) => [c.type, c.status, c.reason])).toEqual([
      ['LeaseHeld', 'True', 'Held'],
      ['Progressing', 'True', 'Advancing'],
      ['Observed', 'True', 'Reporting'],
      ['Enabled', 'True', 'NoIntent'],
    ]);
    expect(one.conditions[0]!.lastTransitionTime).toBe(one.status.authority.acquiredAt);
    const at = new Date(Date.parse(one.observedAt) - 1).toISOString();
    const asOf = (await conforms(route, await detailRoute(get(`${base}/${name}?at=${at}`), name, () => live))) as Detail;
    expect(asOf.asOf).toBe(at);
    expect(asOf.conditions.map((c) => c.type)).toEqual(['LeaseHeld', 'Progressing', 'Observed', 'Enabled']);
    for (const [url, routeName] of [
      [`${base}/${name}?at=yesterday`, name],
      [`${base}/${name}?at=2099-01-01T00:00:00Z`, name],
      [`${base}/${name}?at=1999-12-31T23:59:59Z`, name],
      [`${base}/x%01`, 'x\u0001'],
    ] as const) {
      const response = await detailRoute(get(url), routeName, () => live);
      expect(response.status).toBe(400);
      await conforms(route, response);
    }
    await conforms(route, await detailRoute(get(`${base}/nobody-here`), 'nobody-here', () => live));
    const weeksAgo = new Date(Date.parse(one.observedAt) - 30 * 86_400_000).toISOString();
    const gone = await detailRoute(get(`${base}/${name}?at=${weeksAgo}`), name, () => live);
    expect(gone.status).toBe(410);
    expect(await conforms(route, gone)).toMatchObject({ error: { code: 'outside_retention', retention: { keptFor: '7 days' } } });
    await conforms(route, await detailRoute(get(`${base}/${name}`), name, () => dead));
  });

  it('/api/v1/schedulers/{name}/history: 200, 400, 404, 410, 503', async () => {
    const route = '/api/v1/schedulers/{name}/history';
    const weeksAgo = new Date(Date.now() - 30 * 86_400_000).toISOString();
    const gone = await historyRoute(get(`${base}/${name}/history?from=${weeksAgo}`), name, () => live);
    expect(gone.status).toBe(410);
    expect(await conforms(route, gone)).toMatchObject({ error: { code: 'outside_retention', message: expect.stringContaining(weeksAgo) } });
    await conforms(route, await historyRoute(get(`${base}/${name}/history`), name, () => live));
    await conforms(route, await historyRoute(get(`${base}/${name}/history?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z`), name, () => live));
    await conforms(route, await historyRoute(get(`${base}/nobody-here/history`), 'nobody-here', () => live));
    await conforms(route, await historyRoute(get(`${base}/${name}/history`), name, () => dead));
  });

  it('/api/v1/strips: 200 (named and ranked), 400, 429, 503', async () => {
    const route = '/api/v1/strips';
    const strips = 'http://x/api/v1/strips';
    await conforms(route, await stripsRoute(get(`${strips}?window=1h&name=${encodeURIComponent(name)}`), () => live));
    await conforms(route, await stripsRoute(get(`${strips}?window=7d&worst=stalled,no_leader&limit=5`), () => live));
    await conforms(route, await stripsRoute(get(`${strips}?window=1y`), () => live));
    await conforms(route, await stripsRoute(get(strips), () => dead));
    const oneRead = heavyReadGate(parseProxyTrust({}), { points: 1, durationS: 60 });
    await conforms(route, await stripsRoute(get(strips), () => live, oneRead));
    expect((await conforms(route, await stripsRoute(get(strips), () => live, oneRead))) as object).toMatchObject({ error: { code: 'rate_limited' } });
  });

  it('/api/v1/schedulers/{name}/reliability and /api/v1/reliability: 200 (JSON and CSV), 400, 404, 429, 503', async () => {
    const one = '/api/v1/schedulers/{name}/reliability';
    const group = '/api/v1/reliability';
    await conforms(one, await reliabilityRoute(get(`${base}/${name}/reliability?window=7d`), name, () => live));
    expect(await conforms(one, await reliabilityRoute(get(`${base}/${name}/reliability?format=csv`), name, () => live))).toMatch(/^name,window,/);
    await conforms(one, await reliabilityRoute(get(`${base}/${name}/reliability?window=1y`), name, () => live));
    await conforms(one, await reliabilityRoute(get(`${base}/nobody-${name}/reliability`), `nobody-${name}`, () => live));
    await conforms(one, await reliabilityRoute(get(`${base}/${name}/reliability`), name, () => dead));
    const reliability = 'http://x/api/v1/reliability';
    await conforms(group, await groupReliabilityRoute(get(`${reliability}?window=30d&selector=team%3Dnobody`), () => live));
    expect(await conforms(group, await groupReliabilityRoute(get(`${reliability}?format=csv`), () => live))).toMatch(/\(group\)/);
    await conforms(group, await groupReliabilityRoute(get(`${reliability}?selector=%21`), () => live));
    await conforms(group, await groupReliabilityRoute(get(reliability), () => dead));
    const oneRead = heavyReadGate(parseProxyTrust({}), { points: 1, durationS: 60 });
    await conforms(group, await groupReliabilityRoute(get(reliability), () => live, oneRead));
    await conforms(group, await groupReliabilityRoute(get(reliability), () => live, oneRead));
    await conforms(one, await reliabilityRoute(get(`${base}/${name}/reliability`), name, () => live, oneRead));
  });

  it('/api/v1/schedulers/{name}/incident: 200 (JSON and Markdown), 400, 404, 410, 429, 503', async () => {
    const route = '/api/v1/schedulers/{name}/incident';
    const to = new Date(Date.now() + 60_000).toISOString();
    const from = new Date(Date.now() - 3_600_000).toISOString();
    const span = `from=${from}&to=${to}`;
    const report = (await conforms(route, await incidentRoute(get(`${base}/${name}/incident?${span}`), name, () => live))) as { entries: unknown[] };
    expect(report.entries.length).toBeGreaterThan(0);
    expect(await conforms(route, await incidentRoute(get(`${base}/${name}/incident?${span}&format=md`), name, () => live))).toMatch(/^# Incident report: /);
    const monthAgo = new Date(Date.now() - 32 * 86_400_000).toISOString();
    for (const query of [`from=${to}&to=${from}`, `from=${monthAgo}&to=${to}`, `to=${to}`, `${span}&format=pdf`]) {
      const refused = await incidentRoute(get(`${base}/${name}/incident?${query}`), name, () => live);
      expect(refused.status).toBe(400);
      await conforms(route, refused);
    }
    const weeksAgo = new Date(Date.now() - 20 * 86_400_000).toISOString();
    const gone = await incidentRoute(get(`${base}/${name}/incident?from=${weeksAgo}&to=${to}`), name, () => live);
    expect(gone.status).toBe(410);
    await conforms(route, gone);
    await conforms(route, await incidentRoute(get(`${base}/nobody-${name}/incident?${span}`), `nobody-${name}`, () => live));
    await conforms(route, await incidentRoute(get(`${base}/${name}/incident?${span}`), name, () => dead));
    const oneRead = heavyReadGate(parseProxyTrust({}), { points: 1, durationS: 60 });
    await conforms(route, await incidentRoute(get(`${base}/${name}/incident?${span}`), name, () => live, oneRead));
    expect((await conforms(route, await incidentRoute(get(`${base}/${name}/incident?${span}`), name, () => live, oneRead))) as object).toMatchObject({
      error: { code: 'rate_limited' },
    });
  });

  it('/api/v1/schedulers/{name}/runs: 200, 400, 404, 429, 503; /api/v1/upcoming: 200, 400, 429, 503', async () => {
    const route = '/api/v1/schedulers/{name}/runs';
    await conforms(route, await runsRoute(get(`${base}/${name}/runs?limit=5`), name, () => live));
    await conforms(route, await runsRoute(get(`${base}/${name}/runs?limit=x`), name, () => live));
    await conforms(route, await runsRoute(get(`${base}/nobody-${name}/runs`), `nobody-${name}`, () => live));
    await conforms(route, await runsRoute(get(`${base}/${name}/runs`), name, () => dead));
    const oneRead = heavyReadGate(parseProxyTrust({}), { points: 1, durationS: 60 });
    await conforms(route, await runsRoute(get(`${base}/${name}/runs`), name, () => live, oneRead));
    await conforms(route, await runsRoute(get(`${base}/${name}/runs`), name, () => live, oneRead));
    const upcoming = '/api/v1/upcoming';
    await conforms(upcoming, await upcomingRoute(get('http://x/api/v1/upcoming'), () => live));
    await conforms(upcoming, await upcomingRoute(get('http://x/api/v1/upcoming?selector=%21'), () => live));
    await conforms(upcoming, await upcomingRoute(get('http://x/api/v1/upcoming'), () => dead));
    const gate = heavyReadGate(parseProxyTrust({}), { points: 1, durationS: 60 });
    await conforms(upcoming, await upcomingRoute(get('http://x/api/v1/upcoming'), () => live, gate));
    await conforms(upcoming, await upcomingRoute(get('http://x/api/v1/upcoming'), () => live, gate));
  });

  it('/api/healthz: 200 and 503; /api/metrics: 200; /api/v1/openapi.json: 200', async () => {
    await conforms('/api/healthz', await healthzRoute(() => live));
    await conforms('/api/healthz', await healthzRoute(() => dead));
    // Its reports are 1 s apart: report again, so a loaded machine's slow tests before this one never make it silent (unknown).
    await r.report(`${name}@2026-01-01T00:00:00Z`, 4);
    const metrics = (await conforms('/api/metrics', await metricsRoute(new Request('http://dashboard.invalid/api/metrics'), () => live))) as string;
    expect(metrics).toContain(`leaseboard_scheduler_health{scheduler="${name}",health="progressing"} 1`);
    await conforms('/api/v1/openapi.json', await openApiRoute());
  });

  it('detail, history and audit: 429 past the per-client budget, 503 busy past the heavy-read cap', async () => {
    const oneRead = heavyReadGate(parseProxyTrust({}), { points: 1, durationS: 60 });
    const detail = '/api/v1/schedulers/{name}';
    await conforms(detail, await detailRoute(get(`${base}/${name}`), name, () => live, oneRead));
    const limited = await detailRoute(get(`${base}/${name}`), name, () => live, oneRead);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    await conforms(detail, limited);
    await conforms('/api/v1/schedulers/{name}/history', await historyRoute(get(`${base}/${name}/history`), name, () => live, oneRead));
    await conforms('/api/v1/audit', await auditRoute(get('http://x/api/v1/audit'), () => live, oneRead));
    // One heavy read at a time, none waiting: while a read hangs on the dead store, the next is refused at once.
    const narrow = serviceOn(deadPool, 500, { heavyConcurrency: 1, heavyQueueMax: 0 });
    const hanging = detailRoute(get(`${base}/${name}`), name, () => narrow);
    const busy = await detailRoute(get(`${base}/${name}`), name, () => narrow);
    expect(busy.status).toBe(503);
    expect(busy.headers.get('retry-after')).toBe('1');
    expect(((await conforms(detail, busy)) as { error: { code: string } }).error.code).toBe('busy');
    expect((await hanging).status).toBe(503);
  });

  it('/api/v1/alerts: 200 (full and counts only), 400, 429, 503', async () => {
    const route = '/api/v1/alerts';
    const full = (await conforms(route, await alertsRoute(get('http://x/api/v1/alerts?limit=10'), () => live))) as { rules: { rule: string }[] };
    expect(full.rules.map((r) => r.rule)).toContain('SchedulerStalled');
    const counts = (await conforms(route, await alertsRoute(get('http://x/api/v1/alerts?limit=0'), () => live))) as { alerts: unknown[] };
    expect(counts.alerts).toEqual([]);
    await conforms(route, await alertsRoute(get('http://x/api/v1/alerts?limit=-1'), () => live));
    await conforms(route, await alertsRoute(get('http://x/api/v1/alerts'), () => dead));
    const oneRead = heavyReadGate(parseProxyTrust({}), { points: 1, durationS: 60 });
    await conforms(route, await alertsRoute(get('http://x/api/v1/alerts?limit=0'), () => live, oneRead));
    const limited = await alertsRoute(get('http://x/api/v1/alerts?limit=0'), () => live, oneRead);
    expect(limited.status).toBe(429);
    await conforms(route, limited);
  });

  it('/api/v1/audit: 200, 400, 503', async () => {
    const route = '/api/v1/audit';
    await conforms(route, await auditRoute(get(`http://x/api/v1/audit?scheduler=${name}&limit=3`), () => live));
    await conforms(route, await auditRoute(get('http://x/api/v1/audit?scheduler=%01'), () => live));
    await conforms(route, await auditRoute(get('http://x/api/v1/audit'), () => dead));
  });

  it('operator routes: intent and alert mode 200/400/403/404/409, session 200/400/403/404, sign-out 200/403', async () => {
    const token = 'contract-operator-token-0123456789';
    const deps: ActionDeps = {
      auth: parseAuthConfig({ LEASEBOARD_OPERATOR_TOKEN: token }),
      sessions: pgSessionStore(pool),
      signIns: signInLimiter(() => {}, { failures: 1, windowS: 60 }),
      writer: pool,
      nowMs: () => Date.now(),
      basePath: '',
      bodyDeadlineMs: 200,
    };
    /** A body that is declared too large, or never arrives. */
    const tooLarge = (url: string, method: string, headers: Record<string, string>) =>
      new Request(url, { method, headers: { ...headers, 'content-length': String(64 * 1024 * 1024) }, body: '{}' });
    const stalled = (url: string, method: string, headers: Record<string, string>) =>
      new Request(url, { method, headers, body: new ReadableStream({ pull: () => new Promise(() => {}) }), duplex: 'half' } as RequestInit);
    const noLocal: ActionDeps = { ...deps, auth: parseAuthConfig({}) };
    const same = { host: 'x', origin: 'http://x', 'sec-fetch-site': 'same-origin', 'x-leaseboard-action': '1', 'content-type': 'application/json' };
    const cross = { ...same, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };
    const send = (url: string, method: string, headers: Record<string, string>, body?: unknown) =>
      new Request(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const session = '/api/v1/session';
    await conforms(session, await sessionRoute(get('http://x/api/v1/session'), deps));
    const signedIn = await signInRoute(send('http://x/api/v1/session', 'POST', same, { token, name: 'contract' }), deps);
    await conforms(session, signedIn, 'post');
    const cookie = signedIn.headers.get('set-cookie')!.split(';')[0]!;
    await conforms(session, await signInRoute(send('http://x/api/v1/session', 'POST', same, { token }), deps), 'post');
    await conforms(session, await signInRoute(send('http://x/api/v1/session', 'POST', same, { token: 'wrong', name: 'x' }), deps), 'post');
    const blocked = await signInRoute(send('http://x/api/v1/session', 'POST', same, { token, name: 'x' }), deps);
    expect(blocked.status).toBe(429);
    await conforms(session, blocked, 'post');
    const unlimited = { ...deps, signIns: signInLimiter(() => {}) };
    await conforms(session, await signInRoute(tooLarge('http://x/api/v1/session', 'POST', same), unlimited), 'post');
    await conforms(session, await signInRoute(stalled('http://x/api/v1/session', 'POST', same), unlimited), 'post');
    await conforms(session, await signInRoute(send('http://x/api/v1/session', 'POST', same, { token, name: 'x' }), noLocal), 'post');
    await conforms(session, await signOutRoute(send('http://x/api/v1/session', 'DELETE', same), deps), 'delete');
    await conforms(session, await signOutRoute(send('http://x/api/v1/session', 'DELETE', cross), deps), 'delete');

    const intent = '/api/v1/schedulers/{name}/intent';
    const as = { ...same, cookie };
    const post = (target: string, headers: Record<string, string>, body: unknown) =>
      intentRoute(send(`${base}/${target}/intent`, 'POST', headers, body), target, deps);
    await conforms(intent, await post(name, as, { disabled: true, reason: 'contract test' }), 'post');
    await conforms(intent, await post(name, as, { disabled: true, reason: 'again' }), 'post');
    await conforms(intent, await post(name, as, { disabled: true }), 'post');
    await conforms(intent, await post(name, same, { disabled: false, reason: 'viewer' }), 'post');
    await conforms(intent, await post('nobody-here', as, { disabled: true, reason: 'x' }), 'post');
    await conforms(intent, await post(name, as, { disabled: false, reason: 'contract test done' }), 'post');
    await conforms(intent, await intentRoute(tooLarge(`${base}/${name}/intent`, 'POST', as), name, deps), 'post');
    await conforms(intent, await intentRoute(stalled(`${base}/${name}/intent`, 'POST', as), name, deps), 'post');

    const labels = '/api/v1/schedulers/{name}/labels';
    const putLabels = (target: string, headers: Record<string, string>, body: unknown) =>
      labelsRoute(send(`${base}/${target}/labels`, 'PUT', headers, body), target, deps);
    const set = (await conforms(labels, await putLabels(name, as, { labels: { team: 'payments' }, reason: 'contract test' }), 'put')) as { labels: unknown };
    expect(set.labels).toEqual({ team: 'payments' });
    await conforms(labels, await putLabels(name, as, { labels: { team: 'payments' }, reason: 'again' }), 'put');
    await conforms(labels, await putLabels(name, as, { labels: { 'bad key': 'x' }, reason: 'x' }), 'put');
    await conforms(labels, await putLabels(name, same, { labels: null, reason: 'viewer' }), 'put');
    await conforms(labels, await putLabels('nobody-here', as, { labels: null, reason: 'x' }), 'put');
    await conforms(labels, await putLabels(name, as, { labels: null, reason: 'contract test done' }), 'put');
    await conforms(labels, await labelsRoute(tooLarge(`${base}/${name}/labels`, 'PUT', as), name, deps), 'put');
    await conforms(labels, await labelsRoute(stalled(`${base}/${name}/labels`, 'PUT', as), name, deps), 'put');

    const runNow = '/api/v1/schedulers/{name}/run-now';
    const held = uniqueLease('contract-run');
    await register(pool, held);
    await acquire(pool, held, 60_000);
    const ask = (target: string, headers: Record<string, string>, body: unknown) =>
      runNowRoute(send(`${base}/${target}/run-now`, 'POST', headers, body), target, deps);
    expect(await conforms(runNow, await ask(held, as, { reason: 'contract test' }), 'post')).toMatchObject({ request: { state: 'pending' } });
    await conforms(runNow, await ask(held, as, { reason: 'again' }), 'post');
    await conforms(runNow, await ask(held, as, {}), 'post');
    await conforms(runNow, await ask(held, same, { reason: 'viewer' }), 'post');
    await conforms(runNow, await ask('nobody-here', as, { reason: 'x' }), 'post');
    await conforms(runNow, await runNowRoute(tooLarge(`${base}/${held}/run-now`, 'POST', as), held, deps), 'post');
    await conforms(runNow, await runNowRoute(stalled(`${base}/${held}/run-now`, 'POST', as), held, deps), 'post');

    const mode = '/api/v1/alerts/rules/{rule}/mode';
    const put = (rule: string, headers: Record<string, string>, body: unknown) =>
      alertModeRoute(send(`http://x/api/v1/alerts/rules/${rule}/mode`, 'PUT', headers, body), rule, deps);
    const changed = (await conforms(mode, await put('SchedulerStalled', as, { mode: 'on', scheduler: name, reason: 'contract test' }), 'put')) as {
      from: { effective: string };
      to: string;
    };
    expect(changed).toMatchObject({ from: { effective: 'shadow' }, to: 'on' });
    await conforms(mode, await put('SchedulerStalled', as, { mode: 'on', scheduler: name, reason: 'again' }), 'put');
    await conforms(mode, await put('SchedulerStalled', as, { mode: 'on' }), 'put');
    await conforms(mode, await put('Watchdog', as, { mode: 'off', scheduler: name, reason: 'x' }), 'put');
    await conforms(mode, await put('SchedulerStalled', same, { mode: 'off', reason: 'viewer' }), 'put');
    await conforms(mode, await put('NoSuchRule', as, { mode: 'off', reason: 'x' }), 'put');
    await conforms(mode, await put('SchedulerStalled', as, { mode: 'off', scheduler: 'nobody-here', reason: 'x' }), 'put');
    await conforms(mode, await put('SchedulerStalled', as, { mode: 'shadow', scheduler: name, reason: 'contract test done' }), 'put');
    const modeUrl = 'http://x/api/v1/alerts/rules/SchedulerStalled/mode';
    await conforms(mode, await alertModeRoute(tooLarge(modeUrl, 'PUT', as), 'SchedulerStalled', deps), 'put');
    await conforms(mode, await alertModeRoute(stalled(modeUrl, 'PUT', as), 'SchedulerStalled', deps), 'put');
  });

  /** An operator's session for the write routes: deps with a 200 ms body deadline, request builders, the signed-in headers. */
  async function operatorSession() {
    const token = 'contract-operator-token-0123456789';
    const deps: ActionDeps = {
      auth: parseAuthConfig({ LEASEBOARD_OPERATOR_TOKEN: token }),
      sessions: pgSessionStore(pool),
      signIns: signInLimiter(() => {}),
      writer: pool,
      nowMs: () => Date.now(),
      basePath: '',
      bodyDeadlineMs: 200,
    };
    const same = { host: 'x', origin: 'http://x', 'sec-fetch-site': 'same-origin', 'x-leaseboard-action': '1', 'content-type': 'application/json' };
    const send = (url: string, method: string, headers: Record<string, string>, body?: unknown) =>
      new Request(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const tooLarge = (url: string, method: string, headers: Record<string, string>) =>
      new Request(url, { method, headers: { ...headers, 'content-length': String(64 * 1024 * 1024) }, body: '{}' });
    const stalled = (url: string, method: string, headers: Record<string, string>) =>
      new Request(url, { method, headers, body: new ReadableStream({ pull: () => new Promise(() => {}) }), duplex: 'half' } as RequestInit);
    const signedIn = await signInRoute(send('http://x/api/v1/session', 'POST', same, { token, name: 'contract' }), deps);
    const as = { ...same, cookie: signedIn.headers.get('set-cookie')!.split(';')[0]! };
    return { deps, same, send, tooLarge, stalled, as };
  }

  it('reports over HTTP 200/400/401/409/429/408/413; report tokens 201/200/400/403/404/409/408/413', async () => {
    const { deps, same, send, tooLarge, stalled, as } = await operatorSession();
    const target = `${name}-reports`;
    await register(pool, target);
    const { rows } = await pool.query(`SELECT epoch::float8 AS epoch FROM leaseboard_acquire($1, 'contract', 'contract', 60000) WHERE granted`, [target]);
    const epoch = rows[0].epoch as number;

    const tokens = '/api/v1/schedulers/{name}/report-tokens';
    const create = (who: string, headers: Record<string, string>, body: unknown) =>
      createReportTokenRoute(send(`${base}/${who}/report-tokens`, 'POST', headers, body), who, deps);
    const made = (await conforms(tokens, await create(target, as, { reason: 'contract test' }), 'post')) as { id: string; token: string };
    await conforms(tokens, await create(target, as, {}), 'post');
    await conforms(tokens, await create(target, same, { reason: 'viewer' }), 'post');
    await conforms(tokens, await create('nobody-here', as, { reason: 'x' }), 'post');
    for (let i = 1; i < REPORT_TOKENS_PER_SCHEDULER; i++) expect((await create(target, as, { reason: `more ${i}` })).status).toBe(201);
    await conforms(tokens, await create(target, as, { reason: 'one too many' }), 'post');
    await conforms(tokens, await createReportTokenRoute(tooLarge(`${base}/${target}/report-tokens`, 'POST', as), target, deps), 'post');
    await conforms(tokens, await createReportTokenRoute(stalled(`${base}/${target}/report-tokens`, 'POST', as), target, deps), 'post');

    const reports = '/api/v1/schedulers/{name}/reports';
    const bearer = { 'content-type': 'application/json', authorization: `Bearer ${made.token}` };
    const ingest = {
      db: pool,
      limiter: new RateLimiterMemory({ points: 2, duration: 60 }),
      refusals: tokenRefusals('report', () => {}),
      trust: parseProxyTrust({}),
      bodyDeadlineMs: 200,
    };
    const report = (headers: Record<string, string>, body: unknown) => reportRoute(send(`${base}/${target}/reports`, 'POST', headers, body), target, ingest);
    const valid = { epoch, seq: 1, occurrence: null, cursor: null, reportEveryMs: 2000 };
    await conforms(reports, await report(bearer, valid), 'post');
    await conforms(reports, await report(bearer, { ...valid, seq: 0 }), 'post');
    await conforms(reports, await report({ 'content-type': 'application/json' }, valid), 'post');
    await conforms(reports, await report(bearer, { ...valid, seq: 2, epoch: epoch + 1 }), 'post');
    await conforms(reports, await report(bearer, { ...valid, seq: 3 }), 'post'); // the limiter's second and last point
    await conforms(reports, await report(bearer, { ...valid, seq: 4 }), 'post');
    await conforms(reports, await reportRoute(tooLarge(`${base}/${target}/reports`, 'POST', bearer), target, ingest), 'post');
    await conforms(reports, await reportRoute(stalled(`${base}/${target}/reports`, 'POST', bearer), target, ingest), 'post');
    // A client past its budget of refused tokens: 429 before any database work.
    const spent = { ...ingest, refusals: tokenRefusals('report', () => {}, { failures: 1, windowS: 60 }) };
    await conforms(reports, await reportRoute(send(`${base}/${target}/reports`, 'POST', { 'content-type': 'application/json' }, valid), target, spent), 'post');
    const blocked = await reportRoute(send(`${base}/${target}/reports`, 'POST', bearer, valid), target, spent);
    expect(blocked.status).toBe(429);
    await conforms(reports, blocked, 'post');

    const revoke = '/api/v1/schedulers/{name}/report-tokens/{id}';
    const del = (id: string, headers: Record<string, string>, body: unknown) =>
      revokeReportTokenRoute(send(`${base}/${target}/report-tokens/${id}`, 'DELETE', headers, body), target, id, deps);
    await conforms(revoke, await del(made.id, same, { reason: 'viewer' }), 'delete');
    await conforms(revoke, await del('not-an-id', as, { reason: 'x' }), 'delete');
    await conforms(revoke, await del(made.id, as, { reason: 'contract test done' }), 'delete');
    await conforms(revoke, await del(made.id, as, { reason: 'again' }), 'delete');
    await conforms(revoke, await revokeReportTokenRoute(tooLarge(`${base}/${target}/report-tokens/${made.id}`, 'DELETE', as), target, made.id, deps), 'delete');
    await conforms(revoke, await revokeReportTokenRoute(stalled(`${base}/${target}/report-tokens/${made.id}`, 'DELETE', as), target, made.id, deps), 'delete');
  });

  it('maintenance windows 200/201/400/403/404/409/408/413/429/503; bulk intent 200/400/403/409/408/413; team owners 200/400/403/409/408/413', async () => {
    const { deps, same, send, tooLarge, stalled, as } = await operatorSession();
    const team = uniqueLease('cteam');
    await labelsRoute(send(`${base}/${name}/labels`, 'PUT', as, { labels: { team }, reason: 'contract windows' }), name, deps);
    const iso = (ms: number) => new Date(ms).toISOString();
    const span = { startsAt: iso(Date.now() - 60_000), endsAt: iso(Date.now() + 3_600_000) };

    const windows = '/api/v1/maintenance-windows';
    const url = 'http://x/api/v1/maintenance-windows';
    const create = (headers: Record<string, string>, body: unknown) => createWindowRoute(send(url, 'POST', headers, body), deps);
    const made = (await conforms(windows, await create(as, { selector: `team=${team}`, ...span, reason: 'contract test' }), 'post')) as {
      window: { id: number };
    };
    await conforms(windows, await create(as, { selector: 'team in (a', ...span, reason: 'x' }), 'post');
    await conforms(windows, await create(same, { selector: `team=${team}`, ...span, reason: 'viewer' }), 'post');
    const cap: number[] = [];
    for (;;) {
      const response = await create(as, { schedulers: ['cap'], ...span, reason: 'cap' });
      if (response.status !== 201) {
        await conforms(windows, response, 'post');
        break;
      }
      cap.push(((await response.json()) as { window: { id: number } }).window.id);
    }
    await conforms(windows, await createWindowRoute(tooLarge(url, 'POST', as), deps), 'post');
    await conforms(windows, await createWindowRoute(stalled(url, 'POST', as), deps), 'post');
    const listed = (await conforms(windows, await maintenanceListRoute(get(url), () => live))) as { windows: { id: number; state: string }[] };
    expect(listed.windows.find((w) => w.id === made.window.id)?.state).toBe('open');
    await conforms(windows, await maintenanceListRoute(get(url), () => dead));
    const oneRead = heavyReadGate(parseProxyTrust({}), { points: 1, durationS: 60 });
    await conforms(windows, await maintenanceListRoute(get(url), () => live, oneRead));
    await conforms(windows, await maintenanceListRoute(get(url), () => live, oneRead));
    // The detail says in maintenance, beside its health, and names its owner's team.
    const detail = (await conforms('/api/v1/schedulers/{name}', await detailRoute(get(`${base}/${name}`), name, () => live))) as {
      maintenance: { window: number } | null;
      owner: { team: string } | null;
    };
    expect(detail.maintenance?.window).toBe(made.window.id);
    expect(detail.owner?.team).toBe(team);

    const one = '/api/v1/maintenance-windows/{id}';
    const edit = (id: string, headers: Record<string, string>, body: unknown) => editWindowRoute(send(`${url}/${id}`, 'PUT', headers, body), id, deps);
    const cancel = (id: string, headers: Record<string, string>, body: unknown) => cancelWindowRoute(send(`${url}/${id}`, 'DELETE', headers, body), id, deps);
    const id = String(made.window.id);
    await conforms(one, await edit(id, as, { selector: `team=${team}`, ...span, weekly: true, reason: 'weekly now' }), 'put');
    await conforms(one, await edit('x1', as, { selector: `team=${team}`, ...span, reason: 'x' }), 'put');
    await conforms(one, await edit(id, same, { selector: `team=${team}`, ...span, reason: 'viewer' }), 'put');
    await conforms(one, await edit('999999999', as, { selector: `team=${team}`, ...span, reason: 'x' }), 'put');
    await conforms(one, await editWindowRoute(tooLarge(`${url}/${id}`, 'PUT', as), id, deps), 'put');
    await conforms(one, await editWindowRoute(stalled(`${url}/${id}`, 'PUT', as), id, deps), 'put');
    await conforms(one, await cancel(id, as, {}), 'delete');
    await conforms(one, await cancel(id, same, { reason: 'viewer' }), 'delete');
    await conforms(one, await cancel('999999999', as, { reason: 'x' }), 'delete');
    await conforms(one, await cancelWindowRoute(tooLarge(`${url}/${id}`, 'DELETE', as), id, deps), 'delete');
    await conforms(one, await cancelWindowRoute(stalled(`${url}/${id}`, 'DELETE', as), id, deps), 'delete');
    await conforms(one, await cancel(id, as, { reason: 'contract test done' }), 'delete');
    await conforms(one, await cancel(id, as, { reason: 'again' }), 'delete');
    await conforms(one, await edit(id, as, { selector: `team=${team}`, ...span, reason: 'after cancel' }), 'put');
    for (const c of cap) expect((await cancel(String(c), as, { reason: 'cap done' })).status).toBe(200);

    const bulk = '/api/v1/bulk/intent';
    const bulkUrl = 'http://x/api/v1/bulk/intent';
    const post = (headers: Record<string, string>, body: unknown) => bulkIntentRoute(send(bulkUrl, 'POST', headers, body), deps);
    await conforms(bulk, await post(as, { selector: `team=${team}`, disabled: true, reason: 'contract test' }), 'post');
    await conforms(bulk, await post(as, { selector: `team=${team}`, disabled: true, reason: 'again' }), 'post');
    await conforms(bulk, await post(as, { selector: `team=${uniqueLease('nobody')}`, disabled: true, reason: 'x' }), 'post');
    await conforms(bulk, await post(same, { selector: `team=${team}`, disabled: false, reason: 'viewer' }), 'post');
    await conforms(bulk, await bulkIntentRoute(tooLarge(bulkUrl, 'POST', as), deps), 'post');
    await conforms(bulk, await bulkIntentRoute(stalled(bulkUrl, 'POST', as), deps), 'post');
    expect((await post(as, { selector: `team=${team}`, disabled: false, reason: 'contract test done' })).status).toBe(200);

    const owner = '/api/v1/teams/{team}/owner';
    const put = (t: string, headers: Record<string, string>, body: unknown) =>
      teamOwnerRoute(send(`http://x/api/v1/teams/${t}/owner`, 'PUT', headers, body), t, deps);
    await conforms(owner, await put(team, as, { contact: '#contract', reason: 'contract test' }), 'put');
    await conforms(owner, await put(team, as, { contact: '#contract', reason: 'again' }), 'put');
    await conforms(owner, await put('not a team', as, { contact: '#x', reason: 'x' }), 'put');
    await conforms(owner, await put(team, same, { contact: '#x', reason: 'viewer' }), 'put');
    await conforms(owner, await teamOwnerRoute(tooLarge(`http://x/api/v1/teams/${team}/owner`, 'PUT', as), team, deps), 'put');
    await conforms(owner, await teamOwnerRoute(stalled(`http://x/api/v1/teams/${team}/owner`, 'PUT', as), team, deps), 'put');
    await labelsRoute(send(`${base}/${name}/labels`, 'PUT', as, { labels: null, reason: 'contract windows done' }), name, deps);
  });

  it('OpenID Connect sign-in: login 303/404, callback 303/400/403/404, against a real provider', async () => {
    const site = 'http://x';
    const redirectUri = `${site}/api/v1/session/oidc/callback`;
    const provider = await startProvider({ redirectUri, postLogoutUri: `${site}/`, accounts: { alice: ['payments'], bob: ['marketing'] } });
    try {
      const deps = oidcDeps(site, provider.issuer, { LEASEBOARD_ANONYMOUS: 'none', LEASEBOARD_OIDC_ROLES: 'payments=operator' });
      const off: ActionDeps = { ...deps, auth: parseAuthConfig({}) };
      const login = '/api/v1/session/oidc/login';
      const callback = '/api/v1/session/oidc/callback';
      const signIn = async (account: string) => {
        const started = await oidcLoginRoute('/', deps);
        await conforms(login, started);
        const flow = started.headers.get('set-cookie')!.split(';')[0]!;
        const back = await signInAtProvider(started.headers.get('location')!, account, redirectUri);
        return oidcCallbackRoute(new Request(back, { headers: { cookie: flow } }), deps);
      };
      await conforms(callback, await signIn('alice'));
      await conforms(callback, await signIn('bob'));
      await conforms(callback, await oidcCallbackRoute(get(`${redirectUri}?code=x&state=y`), deps));
      await conforms(login, await oidcLoginRoute('/', off));
      await conforms(callback, await oidcCallbackRoute(get(`${redirectUri}?code=x&state=y`), off));
    } finally {
      await provider.close();
    }
  });

  it('service tokens: list 200/403, create 201/400/403/409/408/413, revoke 200/400/403/404/408/413, as an admin signed in at a real provider', async () => {
    const site = 'http://x';
    const redirectUri = `${site}/api/v1/session/oidc/callback`;
    const provider = await startProvider({ redirectUri, postLogoutUri: `${site}/`, accounts: { root: ['sre-admins'] } });
    try {
      const deps: ActionDeps = { ...oidcDeps(site, provider.issuer, { LEASEBOARD_OIDC_ROLES: 'sre-admins=admin' }), bodyDeadlineMs: 200 };
      const started = await oidcLoginRoute('/', deps);
      const flow = started.headers.get('set-cookie')!.split(';')[0]!;
      const back = await oidcCallbackRoute(
        new Request(await signInAtProvider(started.headers.get('location')!, 'root', redirectUri), { headers: { cookie: flow } }),
        deps,
      );
      const cookie = back.headers
        .getSetCookie()
        .map((line) => line.split(';')[0]!)
        .find((pair) => pair.startsWith('leaseboard_oidc='))!;
      const same = { host: 'x', origin: site, 'sec-fetch-site': 'same-origin', 'x-leaseboard-action': '1', 'content-type': 'application/json', cookie };
      const send = (url: string, method: string, headers: Record<string, string>, body?: unknown) =>
        new Request(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const tooLarge = (url: string, method: string) =>
        new Request(url, { method, headers: { ...same, 'content-length': String(64 * 1024 * 1024) }, body: '{}' });
      const stalled = (url: string, method: string) =>
        new Request(url, { method, headers: same, body: new ReadableStream({ pull: () => new Promise(() => {}) }), duplex: 'half' } as RequestInit);
      const list = '/api/v1/tokens';
      const one = '/api/v1/tokens/{id}';
      await conforms(list, await listServiceTokensRoute(get(`${site}${list}`), deps));
      await conforms(list, await listServiceTokensRoute(send(`${site}${list}`, 'GET', { cookie }), deps));
      const tokenName = `contract-${name.slice(-6)}`;
      const created = await createServiceTokenRoute(
        send(`${site}${list}`, 'POST', same, { name: tokenName, scopes: ['read'], selector: '', reason: 'contract' }),
        deps,
      );
      const made = (await conforms(list, created, 'post')) as { id: string };
      await conforms(
        list,
        await createServiceTokenRoute(send(`${site}${list}`, 'POST', same, { name: tokenName, scopes: ['read'], selector: '', reason: 'x' }), deps),
        'post',
      );
      await conforms(list, await createServiceTokenRoute(send(`${site}${list}`, 'POST', same, { name: tokenName, scopes: [] }), deps), 'post');
      await conforms(list, await createServiceTokenRoute(send(`${site}${list}`, 'POST', { ...same, cookie: '' }, { name: 'x' }), deps), 'post');
      await conforms(list, await createServiceTokenRoute(tooLarge(`${site}${list}`, 'POST'), deps), 'post');
      await conforms(list, await createServiceTokenRoute(stalled(`${site}${list}`, 'POST'), deps), 'post');
      const at = (id: string) => `${site}/api/v1/tokens/${id}`;
      await conforms(one, await revokeServiceTokenRoute(send(at(made.id), 'DELETE', same, { reason: 'contract' }), made.id, deps), 'delete');
      await conforms(one, await revokeServiceTokenRoute(send(at(made.id), 'DELETE', same, { reason: 'again' }), made.id, deps), 'delete');
      await conforms(one, await revokeServiceTokenRoute(send(at('nope'), 'DELETE', same, { reason: 'x' }), 'nope', deps), 'delete');
      await conforms(one, await revokeServiceTokenRoute(send(at(made.id), 'DELETE', { ...same, cookie: '' }, { reason: 'x' }), made.id, deps), 'delete');
      await conforms(one, await revokeServiceTokenRoute(tooLarge(at(made.id), 'DELETE'), made.id, deps), 'delete');
      await conforms(one, await revokeServiceTokenRoute(stalled(at(made.id), 'DELETE'), made.id, deps), 'delete');
    } finally {
      await provider.close();
    }
  });

  it('every documented (method, route, status) was produced by a case above', () => {
    const documented = Object.entries(doc.paths as unknown as Record<string, Partial<Record<Method, Operation>>>).flatMap(([route, item]) =>
      Object.entries(item).flatMap(([method, operation]) => Object.keys(operation!.responses).map((status) => `${method} ${route} ${status}`)),
    );
    expect([...seen].sort()).toEqual(documented.sort());
  });
});
