/**
 * The status API's route logic, framework-free: `Request` in, `Response` out,
 * the service injected (a thunk, so a misconfigured environment is caught
 * here too). The files under app/api only bind these to Next's routes. The
 * top of lib/server: the one layer that parses, validates, maps results to
 * statuses (./result.ts) and serialises.
 *
 * Guarantees: input is validated before any read (./params.ts); bad input
 * → 400, unknown scheduler → 404, unreadable store → 200 with
 * `observation.ok=false` for the list, 503 for detail/history/healthz — each
 * in the error shape with `Cache-Control: no-store`; nothing a client sends
 * can produce a 5xx or a stack trace. A list page and a metrics text are
 * encoded once per live read, however many pollers ask (the service hands
 * them the same object); the metrics text is gzipped once per read too, for
 * the scrapes that accept it (`Vary: Accept-Encoding` on both answers).
 */
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { acceptsGzip } from '../../http/accept-encoding';
import { errorResponse, guarded, json, jsonText, text } from '../../http/respond';
import type { StatusService } from '../service';
import { detailAnswer, groupReliabilityAnswer, historyAnswer, incidentAnswer, reliabilityAnswer, runsAnswer, stripsAnswer, upcomingAnswer } from './answers';
import { type HeavyGate, OPEN_GATE } from './heavy-gate';
import { openApiDocument } from './openapi';
import { parseExportFormat, parseListQuery } from './params';
import { groupReliabilityCsv, reliabilityCsv } from './reliability-csv';
import { incidentMarkdown } from './incident-markdown';
import type { HttpResult } from './result';

export type ServiceSource = () => StatusService;

function query(request: Request): URLSearchParams {
  return new URL(request.url).searchParams;
}

export function respond<T>(result: HttpResult<T>): Response {
  return result.ok ? json(result.value) : errorResponse(result.error);
}

const utf8 = new TextEncoder();
const encoded = new WeakMap<object, Uint8Array<ArrayBuffer>>();

/** The UTF-8 bytes of `text()`, made once per `source` object (a memoised page or metrics text). */
function encodedOnce(source: object, text: () => string): Uint8Array<ArrayBuffer> {
  let bytes = encoded.get(source);
  if (bytes === undefined) encoded.set(source, (bytes = utf8.encode(text())));
  return bytes;
}

const VARY_ENCODING = { vary: 'Accept-Encoding' };
const gzipAsync = promisify(gzip);
const gzipped = new WeakMap<object, Promise<Uint8Array<ArrayBuffer>>>();

/** `bytes` gzipped, once per `source` object (concurrent callers share the one compression). */
function gzippedOnce(source: object, bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  let compressed = gzipped.get(source);
  if (compressed === undefined) {
    compressed = gzipAsync(bytes).then((buffer) => new Uint8Array(buffer.buffer as ArrayBuffer, buffer.byteOffset, buffer.byteLength));
    gzipped.set(source, compressed);
  }
  return compressed;
}

export function listRoute(request: Request, service: ServiceSource): Promise<Response> {
  return guarded('list', async () => {
    const params = parseListQuery(query(request));
    if (!params.ok) return errorResponse(params.error);
    const page = await service().list(params.value);
    return jsonText(encodedOnce(page, () => JSON.stringify(page)));
  });
}

export function detailRoute(request: Request, name: string, service: ServiceSource, gate: HeavyGate = OPEN_GATE): Promise<Response> {
  return guarded('detail', async () => {
    const refused = await gate.admit(request.headers);
    if (refused) return errorResponse(refused);
    return respond(await detailAnswer(service(), name, query(request).get('at')));
  });
}

export function historyRoute(request: Request, name: string, service: ServiceSource, gate: HeavyGate = OPEN_GATE): Promise<Response> {
  return guarded('history', async () => {
    const refused = await gate.admit(request.headers);
    if (refused) return errorResponse(refused);
    const q = query(request);
    return respond(await historyAnswer(service(), name, q.get('from'), q.get('to')));
  });
}

export function stripsRoute(request: Request, service: ServiceSource, gate: HeavyGate = OPEN_GATE): Promise<Response> {
  return guarded('strips', async () => {
    const refused = await gate.admit(request.headers);
    if (refused) return errorResponse(refused);
    return respond(await stripsAnswer(service(), query(request)));
  });
}

/** GET /api/v1/schedulers/{name}/runs?limit=N */
export function runsRoute(request: Request, name: string, service: ServiceSource, gate: HeavyGate = OPEN_GATE): Promise<Response> {
  return guarded('runs', async () => {
    const refused = await gate.admit(request.headers);
    if (refused) return errorResponse(refused);
    return respond(await runsAnswer(service(), name, query(request)));
  });
}

/** GET /api/v1/upcoming?selector=… */
export function upcomingRoute(request: Request, service: ServiceSource, gate: HeavyGate = OPEN_GATE): Promise<Response> {
  return guarded('upcoming', async () => {
    const refused = await gate.admit(request.headers);
    if (refused) return errorResponse(refused);
    return respond(await upcomingAnswer(service(), query(request)));
  });
}

/** An export: JSON, or CSV (`format=csv`) as an attachment named `file`.csv; errors always JSON. */
function exported<T>(result: HttpResult<T>, format: 'json' | 'csv', csv: (value: T) => string, file: string): Response {
  if (!result.ok || format === 'json') return respond(result);
  return text(csv(result.value), 'text/csv; charset=utf-8', 200, { 'content-disposition': `attachment; filename="${file}.csv"` });
}

/** GET /api/v1/schedulers/{name}/reliability?window=24h|7d|30d[&format=csv] */
export function reliabilityRoute(request: Request, name: string, service: ServiceSource, gate: HeavyGate = OPEN_GATE): Promise<Response> {
  return guarded('reliability', async () => {
    const refused = await gate.admit(request.headers);
    if (refused) return errorResponse(refused);
    const q = query(request);
    const format = parseExportFormat(q);
    if (!format.ok) return errorResponse(format.error);
    const result = await reliabilityAnswer(service(), name, q);
    return exported(result, format.value, reliabilityCsv, `reliability-${result.ok ? `${result.value.scheduler.name}-${result.value.window}` : 'error'}`);
  });
}

/** GET /api/v1/reliability?window=…&selector=…[&format=csv] */
export function groupReliabilityRoute(request: Request, service: ServiceSource, gate: HeavyGate = OPEN_GATE): Promise<Response> {
  return guarded('group reliability', async () => {
    const refused = await gate.admit(request.headers);
    if (refused) return errorResponse(refused);
    const q = query(request);
    const format = parseExportFormat(q);
    if (!format.ok) return errorResponse(format.error);
    const result = await groupReliabilityAnswer(service(), q);
    return exported(result, format.value, groupReliabilityCsv, `reliability-${result.ok ? result.value.window : 'error'}`);
  });
}

/**
 * GET /api/v1/schedulers/{name}/incident?from=…&to=…[&format=md|json]: JSON, or Markdown
 * (`format=md`) as an attachment; errors always JSON. `linkBase`: the dashboard's URL with
 * its base path (LEASEBOARD_PUBLIC_URL), or null to link under the origin the request came to.
 */
export function incidentRoute(
  request: Request,
  name: string,
  service: ServiceSource,
  gate: HeavyGate = OPEN_GATE,
  linkBase: string | null = null,
  basePath = '',
): Promise<Response> {
  return guarded('incident', async () => {
    const refused = await gate.admit(request.headers);
    if (refused) return errorResponse(refused);
    const q = query(request);
    const format = q.get('format') ?? 'json';
    if (format !== 'json' && format !== 'md') return errorResponse({ status: 400, code: 'invalid_parameter', message: 'format: expected json or md' });
    const result = await incidentAnswer(service(), name, q, linkBase ?? `${new URL(request.url).origin}${basePath}`);
    if (!result.ok || format === 'json') return respond(result);
    const file = `incident-${result.value.scheduler.replace(/[^A-Za-z0-9._-]/g, '_')}-${result.value.from.replace(/[:.]/g, '')}`;
    return text(incidentMarkdown(result.value), 'text/markdown; charset=utf-8', 200, { 'content-disposition': `attachment; filename="${file}.md"` });
  });
}

/**
 * The metrics text, gzipped for the clients that accept it (a Prometheus
 * scrape sends `Accept-Encoding: gzip` unless enable_compression is off):
 * compressed once per metrics text (once per live read), off the event loop,
 * and the same bytes sent to every scrape of that read.
 */
export function metricsRoute(request: Request, service: ServiceSource): Promise<Response> {
  return guarded('metrics', async () => {
    const metrics = await service().metrics();
    const plain = encodedOnce(metrics, () => metrics.body);
    if (!acceptsGzip(request.headers.get('accept-encoding'))) return text(plain, metrics.contentType, 200, VARY_ENCODING);
    return text(await gzippedOnce(metrics, plain), metrics.contentType, 200, { ...VARY_ENCODING, 'content-encoding': 'gzip' });
  });
}

export function healthzRoute(service: ServiceSource): Promise<Response> {
  return guarded('healthz', async () => {
    const health = await service().healthz();
    return health.ok ? json(health) : json({ ...health, error: { code: 'store_unreadable', message: 'the status store could not be read' } }, 503);
  });
}

export function openApiRoute(): Promise<Response> {
  return guarded('openapi', async () => json(openApiDocument()));
}
