/**
 * The hottest reads — the list, metrics and healthz, polled by every open
 * dashboard and every Prometheus — answered by the dashboard's own HTTP server
 * (lib/host/dashboard-server.ts) without the framework's per-request routing
 * and rendering machinery: the same framework-free handlers as the app routes
 * (./handlers.ts), on the same process-wide status service (../instance.ts),
 * so the answers are identical, byte for byte, whichever path served them.
 *
 * Guarantees: only GET and HEAD of exactly these three paths (under the base
 * path) are taken; everything else is left to Next.js. The security headers
 * the server sets before calling this stay on the response. The request is
 * built on a fixed base (never the client's Host: `Host: x:99999` used to make
 * `new Request` throw and leave the socket unanswered) with only the client's
 * Accept-Encoding (metrics are gzipped for the clients that accept it), and a failure while
 * answering is a 500 in the error shape — every request gets an answer.
 */
import type http from 'node:http';
import { heavyGate, statusService } from '../instance';
import type { HeavyGate } from './heavy-gate';
import { healthzRoute, listRoute, metricsRoute } from './handlers';
import { errorResponse } from '../../http/respond';

type Route = (request: Request) => Promise<Response>;

export function hotReadRoutes(basePath: string): (req: http.IncomingMessage, res: http.ServerResponse) => boolean {
  const routes = new Map<string, Route>([
    [`${basePath}/api/v1/schedulers`, (request) => listRoute(request, statusService)],
    [`${basePath}/api/metrics`, (request) => metricsRoute(request, statusService)],
    [`${basePath}/api/healthz`, () => healthzRoute(statusService)],
  ]);
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const route = routes.get(query < 0 ? url : url.slice(0, query));
    if (!route) return false;
    void answer(route, req, res);
    return true;
  };
}

/** The handlers read only the path and the query: the host part is fixed. */
const BASE = 'http://dashboard.invalid';

async function answer(route: Route, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  let response: Response;
  try {
    const encoding = req.headers['accept-encoding'];
    const headers: Record<string, string> = encoding === undefined ? {} : { 'accept-encoding': encoding };
    response = await route(new Request(`${BASE}${req.url ?? '/'}`, { method: req.method, headers }));
  } catch (error) {
    console.error('status api: hot read failed', error);
    response = errorResponse({ status: 500, code: 'internal', message: 'internal error in the status service' });
  }
  const body = Buffer.from(await response.arrayBuffer());
  response.headers.forEach((value, name) => res.setHeader(name, value));
  res.setHeader('content-length', body.length);
  res.writeHead(response.status);
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** The process-wide heavy-read limit (../instance.ts), made on first use: history pages spend the same budget as the API's heavy reads. */
export const lazyHeavyGate: HeavyGate = { admit: (headers) => heavyGate().admit(headers) };
