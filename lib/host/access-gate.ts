/**
 * The access gate's glue to node:http (the decision itself is
 * lib/auth/access.ts, handed in by scripts/serve.ts): the request's path
 * without the base path and its headers go in; the verdict's Cookie header
 * replaces the request's before any route reads it, its Set-Cookie values are
 * added to whatever the route answers, and a refusal is sent instead of
 * routing.
 *
 * Guarantees: `route` runs at most once, and only when the gate let the
 * request through; a gate that throws is the caller's `failed` (a 500),
 * never an unanswered request.
 */
import type http from 'node:http';

/** What the access gate decided (lib/auth/access.ts's AccessVerdict, by shape: the host does not import lib/auth). */
interface AccessVerdict {
  cookieHeader: string | null;
  setCookies: string[];
  refusal: Response | null;
}

export type AccessCheck = (request: { method: string; pathname: string; search: string; headers: Headers }) => Promise<AccessVerdict>;

/** A node request's headers as a fetch `Headers` (what the access check and the heavy-read gate read). */
export function headersOf(req: http.IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return headers;
}

/** Adds `cookies` to the answer, and keeps them when the route later sets its own Set-Cookie (setHeader would replace them). */
function keepCookies(res: http.ServerResponse, cookies: string[]): void {
  res.setHeader('set-cookie', cookies);
  const setHeader = res.setHeader.bind(res);
  res.setHeader = (name: string, value: number | string | readonly string[]) =>
    setHeader(name, name.toLowerCase() === 'set-cookie' ? [...cookies, ...(Array.isArray(value) ? value : [String(value)])] : value);
}

export function gateThen(
  access: AccessCheck,
  basePath: string,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  route: () => void,
  failed: (error: unknown) => void,
): void {
  const [rawPath = '/', rawSearch] = (req.url ?? '/').split('?', 2);
  const pathname = basePath && rawPath.startsWith(basePath) ? rawPath.slice(basePath.length) || '/' : rawPath;
  access({ method: req.method ?? 'GET', pathname, search: rawSearch === undefined ? '' : `?${rawSearch}`, headers: headersOf(req) })
    .then(async (verdict) => {
      if (verdict.cookieHeader !== null) req.headers.cookie = verdict.cookieHeader;
      if (verdict.setCookies.length > 0) keepCookies(res, verdict.setCookies);
      if (verdict.refusal === null) return route();
      // Answered before any body was read: the connection must not carry another request after it.
      if (req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0') res.shouldKeepAlive = false;
      res.statusCode = verdict.refusal.status;
      verdict.refusal.headers.forEach((value, name) => res.setHeader(name, value));
      res.end(Buffer.from(await verdict.refusal.arrayBuffer()));
    })
    .catch(failed);
}
