/**
 * Everything the dashboard's own server decides before Next.js sees a request,
 * in order: our peer stamp replaces the client's, the security headers are
 * set, malformed requests are refused (../http/request-limits.ts), the hot
 * reads are answered (../server/http/node-routes.ts), the overview's HTML is
 * shared (./page-cache.ts); the rest is rendered.
 *
 * Guarantees: every request passes these steps in this order; `render` is
 * called at most once per request. Framework-free, so a test can put it on a
 * node:http server with a stand-in renderer.
 */
import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import { PEER_HEADER } from '../http/peer';
import { refuseEarly } from '../http/request-limits';
import { pageCache } from './page-cache';
import { securityHeadersFor } from './security-headers';

export type Answer = (req: http.IncomingMessage, res: http.ServerResponse) => boolean;

export interface FrontDoorOptions {
  basePath: string;
  dev: boolean;
  /** Our peer stamp for a socket's remote address (../http/peer.ts). */
  stamp: (address: string | undefined) => string;
  /** The list, metrics and healthz, answered without Next.js; false: not one of them. */
  hotRead: Answer;
  /** How long the overview's HTML is shared between visitors (./page-cache.ts); 0: never. */
  pageCacheMs: number;
  /** Hands the request to Next.js. */
  render: (req: http.IncomingMessage, res: http.ServerResponse) => void;
}

export function frontDoor(options: FrontDoorOptions): (req: http.IncomingMessage, res: http.ServerResponse) => void {
  const { basePath, dev } = options;
  const overview = pageCache({ paths: [basePath || '/', `${basePath}/`], maxAgeMs: dev ? 0 : options.pageCacheMs });
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
    if (refuseEarly(req, res)) return;
    const render = () => options.render(req, res);
    if (options.hotRead(req, res)) return;
    if (!overview.serve(req, res, nonce, render)) render();
  };
}
