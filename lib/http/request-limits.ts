/**
 * What Leaseboard's HTTP servers (the dashboard, lib/host; the demo's
 * archive, examples/demo/archive) refuse before any route sees a request, and how they stop
 * reading what they will not use.
 *
 * - A `Host` header that is not a host with an optional port (`x:99999`,
 *   `a@b`, `a/b`) → 400: Next.js and our own routes build URLs from it, and a
 *   URL that cannot be built used to leave the socket unanswered.
 * - A request target that is not valid percent-encoded UTF-8 (`/%E0`,
 *   `?q=%C0%AF`) → 400: Next.js answered 500 for such a path, and decoded
 *   such a query into replacement characters.
 * - A declared body (`Content-Length`) over MAX_REQUEST_BODY_BYTES → 413 at
 *   once, nothing read (no route takes more; each route's own limit is
 *   smaller, lib/http/body.ts).
 * - An answer sent before the request's body was read to its end (a refusal:
 *   413, 408, 403…) closes the connection after it (`Connection: close`), so
 *   the rest of a large or slow body is never read.
 * - Server timeouts (see SERVER_TIMEOUTS): headers must arrive within 10 s and
 *   the whole request within 30 s, checked every second (Node answers 408),
 *   headers larger than 16 KiB get 431.
 * `refuseEarly` applies all of it to one request.
 */
import type http from 'node:http';

export const MAX_REQUEST_BODY_BYTES = 64 * 1024;

/** `connectionsCheckingInterval`: how often Node looks for requests past their timeouts (its default, 30 s, let a slow sender hold a socket for up to 40 s). */
export const SERVER_TIMEOUTS = { headersTimeout: 10_000, requestTimeout: 30_000, maxHeaderSize: 16 * 1024, connectionsCheckingInterval: 1_000 } as const;

/** Options for `http.createServer`: header size and how often timeouts are checked (the rest: `applyServerLimits`). */
export const SERVER_OPTIONS: http.ServerOptions = {
  maxHeaderSize: SERVER_TIMEOUTS.maxHeaderSize,
  connectionsCheckingInterval: SERVER_TIMEOUTS.connectionsCheckingInterval,
};

const HOST = /^(?:\[[0-9A-Fa-f:.]{2,45}\]|[A-Za-z0-9._~!$&'()*+,;=%-]{1,253})(?::(\d{1,5}))?$/;

/** Whether a Host header names a host and, optionally, a port (1–65535). */
export function validHost(host: string | undefined): boolean {
  if (host === undefined) return true; // HTTP/1.0 has none
  const match = HOST.exec(host);
  if (!match) return false;
  const port = match[1];
  return port === undefined || (Number(port) >= 1 && Number(port) <= 65_535);
}

type EarlyRefusal = { status: 400 | 413; code: string; message: string } | null;

/** Whether every %XX of a request target decodes, as UTF-8 (`+` is a plain character here). */
function decodableTarget(target: string): boolean {
  try {
    decodeURIComponent(target);
    return true;
  } catch {
    return false;
  }
}

/** The refusal a request earns before routing, or null. */
function earlyRefusal(headers: http.IncomingHttpHeaders, target = '/'): EarlyRefusal {
  if (!validHost(headers.host)) return { status: 400, code: 'invalid_host', message: 'Host is not a host name with an optional port' };
  if (!decodableTarget(target)) return { status: 400, code: 'invalid_encoding', message: 'the path or query is not valid percent-encoded UTF-8' };
  const length = headers['content-length'];
  if (length !== undefined && (!/^\d{1,15}$/.test(length) || Number(length) > MAX_REQUEST_BODY_BYTES)) {
    return /^\d{1,15}$/.test(length)
      ? { status: 413, code: 'too_large', message: `body larger than ${MAX_REQUEST_BODY_BYTES} bytes` }
      : { status: 400, code: 'invalid_body', message: 'Content-Length is not a whole number' };
  }
  return null;
}

/** Answers a refusal as JSON and closes the connection (its body, if any, is never read). */
function sendEarlyRefusal(res: http.ServerResponse, refusal: NonNullable<EarlyRefusal>): void {
  res.shouldKeepAlive = false;
  res.writeHead(refusal.status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', connection: 'close' });
  res.end(JSON.stringify({ error: { code: refusal.code, message: refusal.message } }));
}

/** Whether a request carries a body at all (RFC 9112 §6.3: Transfer-Encoding, or a Content-Length above 0). */
function hasBody(headers: http.IncomingHttpHeaders): boolean {
  return headers['transfer-encoding'] !== undefined || (headers['content-length'] !== undefined && Number(headers['content-length']) > 0);
}

/**
 * When the answer starts before the request's body has arrived whole, the connection closes after it: the rest is never read.
 * A request without a body keeps its connection, even answered at once (a GET answered from a cache inside the request
 * event is not yet `complete`: closing it made every such answer cost a new connection).
 */
function closeUnreadBodies(req: http.IncomingMessage, res: http.ServerResponse): void {
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => http.ServerResponse;
  res.writeHead = ((...args: unknown[]) => {
    if (!req.complete && hasBody(req.headers)) res.shouldKeepAlive = false;
    return writeHead(...args);
  }) as typeof res.writeHead;
}

/** Refuses what must be refused before routing (true: answered), and arranges for an unread body to close the connection. */
export function refuseEarly(req: http.IncomingMessage, res: http.ServerResponse): boolean {
  const refusal = earlyRefusal(req.headers, req.url);
  if (refusal !== null) {
    sendEarlyRefusal(res, refusal);
    return true;
  }
  closeUnreadBodies(req, res);
  return false;
}

/** The server-wide limits (SERVER_TIMEOUTS) on a node server. */
export function applyServerLimits(server: http.Server): void {
  server.headersTimeout = SERVER_TIMEOUTS.headersTimeout;
  server.requestTimeout = SERVER_TIMEOUTS.requestTimeout;
}
