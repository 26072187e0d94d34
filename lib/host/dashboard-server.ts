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
 *   every page a CSP with a nonce of its own; HSTS when the public URL is https.
 * - Only our own hosts are answered (./allowed-hosts.ts: DNS rebinding), and
 *   history pages spend the per-client heavy-read budget (./front-door.ts).
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
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import next from 'next';
import { enablePeerStamping } from '../http/peer';
import { hotReadRoutes, lazyHeavyGate } from '../server/http/node-routes';
import { servedBasePath } from '../server/env';
import { applyServerLimits, SERVER_OPTIONS } from '../http/request-limits';
import { frontDoor } from './front-door';
import type { AccessCheck } from './access-gate';

const DEFAULT_HOST = '127.0.0.1';

export interface DashboardServerOptions {
  dir: string;
  host?: string;
  port: number;
  dev?: boolean;
  /** How long the overview's HTML is shared between visitors (./page-cache.ts); 0: never. Default 0. */
  pageCacheMs?: number;
  /** LEASEBOARD_PUBLIC_URL: its host is answered; https adds HSTS (./front-door.ts). */
  publicUrl?: string | null;
  /** LEASEBOARD_ALLOWED_HOSTS: more names answered besides the public URL's and loopback (./allowed-hosts.ts). */
  allowedHosts?: readonly string[];
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
  const answer = frontDoor({
    basePath,
    dev,
    stamp,
    hotRead: hotReadRoutes(basePath),
    pageCacheMs: options.pageCacheMs ?? 0,
    publicUrl: options.publicUrl ?? null,
    allowedHosts: options.allowedHosts ?? [],
    listenHost: host,
    heavyGate: lazyHeavyGate,
    access: options.access ?? null,
    failed,
    render: (req, res) => void handle(req, res).catch((error: unknown) => failed(res, error)),
  });
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
