/**
 * The dashboard's HTTP server: Next.js behind a plain node:http server of our
 * own, so the things Next cannot see are decided here, once.
 *
 * Guarantees
 * - Binds `127.0.0.1` unless a host is given (HOST): a status page with write
 *   routes is never on every interface by accident.
 * - Every request carries our peer stamp (../http/peer.ts) and never the
 *   client's: proxy identity is trusted only by the real TCP peer address.
 * - A bad Host, an oversized declared body, slow or oversized headers are
 *   refused before routing, and an answer sent before a body was read closes
 *   the connection (../http/request-limits.ts). No request can end the process: a
 *   failure while answering is a 500 (or a closed socket once headers left).
 * - Every response carries the security headers of ./security-headers.ts;
 *   every page a CSP with a nonce of its own.
 * - The list, metrics and healthz — polled by every dashboard and scraper —
 *   are answered by the same handlers without Next.js's per-request machinery
 *   (../server/http/node-routes.ts); everything else goes to Next.js.
 * - With `access` (lib/auth/access.ts), every request but those refused early
 *   passes it first: LEASEBOARD_ANONYMOUS=none, and the refresh of an OpenID
 *   Connect session whose role is due, happen here, before any route reads.
 * - The overview's HTML is shared between visitors for `pageCacheMs`, each
 *   answer with its own nonce (./page-cache.ts).
 * - `close()` stops accepting, ends open connections and closes Next.js.
 * Not guaranteed: TLS — terminate it in front (the SSO proxy or ingress).
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import next from 'next';
import { enablePeerStamping, PEER_HEADER } from '../http/peer';
import { hotReadRoutes } from '../server/http/node-routes';
import { servedBasePath } from '../server/env';
import { pageCache } from './page-cache';
import { applyServerLimits, refuseEarly, SERVER_OPTIONS } from '../http/request-limits';
import { securityHeadersFor } from './security-headers';
import { type AccessCheck, gateThen } from './access-gate';

export const DEFAULT_HOST = '127.0.0.1';

export interface DashboardServerOptions {
  dir: string;
  host?: string;
  port: number;
  dev?: boolean;
  /** How long the overview's HTML is shared between visitors (./page-cache.ts); 0: never. Default 0. */
  pageCacheMs?: number;
  /**
   * Who may read, decided before any route (lib/auth/access.ts): given the request (path without the base
   * path), the Cookie header to go on with, Set-Cookie values to add, or the answer to send instead.
   */
  access?: AccessCheck;
}

export interface DashboardServer {
  url: string;
  close(): Promise<void>;
}

/** A request that failed while being answered: 500 when nothing was sent yet, else the connection ends. Never the process. */
function failed(res: http.ServerResponse, error: unknown): void {
  console.error('dashboard: a request failed while being answered', error);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.shouldKeepAlive = false;
  res.writeHead(500, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify({ error: { code: 'internal', message: 'internal error in the dashboard server' } }));
}

export async function startDashboardServer(options: DashboardServerOptions): Promise<DashboardServer> {
  const host = options.host || DEFAULT_HOST;
  const dev = options.dev ?? false;
  const basePath = servedBasePath();
  const stamp = enablePeerStamping();
  const server = http.createServer(SERVER_OPTIONS);
  applyServerLimits(server);
  const app = next({ dev, dir: options.dir, hostname: host, port: options.port, httpServer: server });
  await app.prepare();
  const handle = app.getRequestHandler();
  const hotRead = hotReadRoutes(basePath);
  const overview = pageCache({ paths: [basePath || '/', `${basePath}/`], maxAgeMs: dev ? 0 : (options.pageCacheMs ?? 0) });
  const answer = (req: http.IncomingMessage, res: http.ServerResponse) => {
    delete req.headers[PEER_HEADER];
    req.headers[PEER_HEADER] = stamp(req.socket.remoteAddress);
    const pathname = (req.url ?? '/').split('?', 1)[0]!;
    const nonce = randomBytes(16).toString('base64');
    const headers = securityHeadersFor(pathname, basePath, nonce, { dev });
    delete req.headers['content-security-policy'];
    delete req.headers['content-security-policy-report-only'];
    if (headers.pagePolicy !== null) req.headers['content-security-policy'] = headers.pagePolicy;
    for (const [name, value] of Object.entries(headers.response)) res.setHeader(name, value);
    if (refuseEarly(req, res)) return;
    const render = () => void handle(req, res).catch((error: unknown) => failed(res, error));
    const route = () => {
      if (hotRead(req, res)) return;
      if (!overview.serve(req, res, nonce, render)) render();
    };
    if (!options.access) return route();
    gateThen(options.access, basePath, req, res, route, (error) => failed(res, error));
  };
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    try {
      answer(req, res);
    } catch (error) {
      failed(res, error);
    }
  });
  if (dev) server.on('upgrade', app.getUpgradeHandler());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await app.close();
    },
  };
}
