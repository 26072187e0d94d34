/**
 * The status API's route logic, framework-free: `Request` in, `Response` out,
 * the service injected (a thunk, so a misconfigured environment is caught
 * here too). The files under app/api only bind these to Next's routes.
 *
 * Guarantees: input is validated before any read (./params.ts); bad input
 * → 400, unknown scheduler → 404, unreadable store → 200 with
 * `observation.ok=false` for the list, 503 for detail/history/healthz — each
 * in the error shape with `Cache-Control: no-store`; nothing a client sends
 * can produce a 5xx or a stack trace.
 */
import { openApiDocument } from './openapi';
import { parseListQuery } from './params';
import type { ReadResult } from './result';
import type { StatusService } from '../service';
import { type HeavyGate, OPEN_GATE } from './heavy-gate';
import { errorResponse, guarded, json, jsonText, text } from '../../http/respond';

export type ServiceSource = () => StatusService;

function query(request: Request): URLSearchParams {
  return new URL(request.url).searchParams;
}

function respond<T>(result: ReadResult<T>): Response {
  return result.ok ? json(result.value) : errorResponse(result.error);
}

export function listRoute(request: Request, service: ServiceSource): Promise<Response> {
  return guarded('list', async () => {
    const params = parseListQuery(query(request));
    if (!params.ok) return errorResponse(params.error);
    return jsonText(await service().listJson(params.value));
  });
}

export function detailRoute(request: Request, name: string, service: ServiceSource, gate: HeavyGate = OPEN_GATE): Promise<Response> {
  return guarded('detail', async () => {
    const refused = await gate.admit(request.headers);
    if (refused) return errorResponse(refused);
    return respond(await service().detail(name, query(request).get('at')));
  });
}

export function historyRoute(request: Request, name: string, service: ServiceSource, gate: HeavyGate = OPEN_GATE): Promise<Response> {
  return guarded('history', async () => {
    const refused = await gate.admit(request.headers);
    if (refused) return errorResponse(refused);
    const q = query(request);
    return respond(await service().history(name, q.get('from'), q.get('to')));
  });
}

export function metricsRoute(service: ServiceSource): Promise<Response> {
  return guarded('metrics', async () => {
    const { bytes, contentType } = await service().metrics();
    return text(bytes, contentType);
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
