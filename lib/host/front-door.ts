/**
 * Everything the dashboard's own server decides before Next.js sees a request,
 * in order:
 * 1. our peer stamp replaces the client's (../http/peer.ts);
 * 2. the security headers are set (./security-headers.ts), and
 *    `Strict-Transport-Security: max-age=31536000` (a year, no preload, no
 *    subdomains: other hosts of the domain are not ours to pin) when the
 *    public URL is https — never on http, where a browser would ignore it;
 * 3. malformed requests are refused (../http/request-limits.ts);
 * 4. a Host that is not ours gets 421 in the error shape (./allowed-hosts.ts,
 *    DNS rebinding) — except the health probe (`/api/healthz`), which
 *    orchestrators send to the pod's address and which tells nothing but
 *    "readable or not";
 * 5. with an access check (lib/auth/access.ts), the request passes it
 *    before any route reads: LEASEBOARD_ANONYMOUS=none, and the refresh of
 *    an OpenID Connect session whose role is due (./access-gate.ts);
 * 6. the hot reads are answered (../server/http/node-routes.ts);
 * 7. pages that read history — a scheduler's detail, live or `?at=`, the
 *    alerts and the audit — spend the client's heavy-read budget, as their
 *    API reads do (../server/http/heavy-gate.ts): past it, 429 with
 *    Retry-After, nothing rendered;
 * 8. the overview's HTML is shared (./page-cache.ts), keyed by the
 *    parameters the page reads (lib/client/list-params.ts) in one spelling,
 *    so made-up query strings share the one render;
 * 9. the rest is rendered by Next.js.
 *
 * Guarantees: every request passes these steps in this order; `render` is
 * called at most once per request. Framework-free, so a test can put it on a
 * node:http server with a stand-in renderer.
 */
import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import { pageKey } from '../client/list-params';
import { PEER_HEADER } from '../http/peer';
import { refuseEarly } from '../http/request-limits';
import type { HeavyGate } from '../server/http/heavy-gate';
import { type AccessCheck, gateThen, headersOf } from './access-gate';
import { allowedHosts } from './allowed-hosts';
import { pageCache } from './page-cache';
import { securityHeadersFor } from './security-headers';

type Answer = (req: http.IncomingMessage, res: http.ServerResponse) => boolean;

const HSTS = 'max-age=31536000';

export interface FrontDoorOptions {
  basePath: string;
  dev: boolean;
  /** Our peer stamp for a socket's remote address (../http/peer.ts). */
  stamp: (address: string | undefined) => string;
  /** The list, metrics and healthz, answered without Next.js; false: not one of them. */
  hotRead: Answer;
  /** How long the overview's HTML is shared between visitors (./page-cache.ts); 0: never. */
  pageCacheMs: number;
  /** LEASEBOARD_PUBLIC_URL, or null. */
  publicUrl: string | null;
  /** LEASEBOARD_ALLOWED_HOSTS. */
  allowedHosts: readonly string[];
  /** The address the server listens on. */
  listenHost: string;
  /** The per-client heavy-read limit, shared with the API's heavy reads. */
  heavyGate: HeavyGate;
  /** Who may read (lib/auth/access.ts); null: everyone may. */
  access: AccessCheck | null;
  /** Answers a failure of the access check (a 500, or a closed socket once headers left). */
  failed: (res: http.ServerResponse, error: unknown) => void;
  /** Hands the request to Next.js. */
  render: (req: http.IncomingMessage, res: http.ServerResponse) => void;
}

function refuse(res: http.ServerResponse, status: number, code: string, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers });
  res.end(JSON.stringify({ error: { code, message } }));
}

export function frontDoor(options: FrontDoorOptions): (req: http.IncomingMessage, res: http.ServerResponse) => void {
  const { basePath, dev } = options;
  const overview = pageCache({
    paths: [basePath || '/', `${basePath}/`],
    maxAgeMs: dev ? 0 : options.pageCacheMs,
    keyOf: pageKey,
  });
  const hostAllowed = allowedHosts({ publicUrl: options.publicUrl, extra: options.allowedHosts, listenHost: options.listenHost });
  const hsts = options.publicUrl?.startsWith('https:') ?? false;
  const healthz = `${basePath}/api/healthz`;
  const historyPage = new RegExp(`^${basePath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/(?:schedulers/[^/]+|alerts|audit)/?$`);
  return (req, res) => {
    delete req.headers[PEER_HEADER];
    req.headers[PEER_HEADER] = options.stamp(req.socket.remoteAddress);
    const pathname = (req.url ?? '/').split('?', 1)[0]!;
    const nonce = randomBytes(16).toString('base64');
    const headers = securityHeadersFor(pathname, basePath, nonce, { dev });
    delete req.headers['content-security-policy'];
    delete req.headers['content-security-policy-report-only'];
    if (headers.pagePolicy !== null) req.headers['content-security-policy'] = headers.pagePolicy;
    for (const [name, value] of Object.entries(headers.response)) res.setHeader(name, value);
    if (hsts) res.setHeader('strict-transport-security', HSTS);
    if (refuseEarly(req, res)) return;
    if (pathname !== healthz && !hostAllowed(req.headers.host)) {
      refuse(
        res,
        421,
        'misdirected_host',
        'this server does not answer for that Host: open the dashboard at its public URL, or add the name to LEASEBOARD_ALLOWED_HOSTS',
      );
      return;
    }
    const render = () => options.render(req, res);
    const route = () => {
      if (options.hotRead(req, res)) return;
      if ((req.method === 'GET' || req.method === 'HEAD') && historyPage.test(pathname)) {
        void options.heavyGate.admit(headersOf(req)).then(
          (refused) => {
            if (refused === null) render();
            else refuse(res, refused.status, refused.code, refused.message, { 'retry-after': String(refused.retryAfterS ?? 1) });
          },
          (error: unknown) => res.destroy(error instanceof Error ? error : new Error(String(error))),
        );
        return;
      }
      if (!overview.serve(req, res, nonce, render)) render();
    };
    if (options.access === null) return route();
    gateThen(options.access, basePath, req, res, route, (error) => options.failed(res, error));
  };
}
