/**
 * A micro-cache for the overview page's server-rendered HTML, so a burst of
 * visitors (an alert that links 50 people to the dashboard) costs one render
 * per `maxAgeMs`, not one each.
 *
 * The page is the same for every visitor: identity, sessions and the demo
 * panel are fetched by the browser, and the server render shows the shared
 * list read, which is itself reused for the same `maxAgeMs` (the service's
 * LEASEBOARD_LIST_MAX_AGE_MS). Only the CSP nonce differs per response: each
 * answer from the cache carries the nonce of ITS response — every occurrence
 * of the rendering's nonce, in the body and the Link header, is replaced —
 * so a nonce is never sent twice.
 *
 * Guarantees
 * - Only GET of the configured paths (query string part of the key), never a
 *   client-side navigation (RSC requests), never a non-200 or non-HTML answer.
 * - Concurrent misses of one key share one render (single-flight).
 * - An entry older than `maxAgeMs` (monotonic clock) is never served; at most
 *   `maxEntries` keys are kept (the oldest go first). `maxAgeMs` 0 disables it.
 * - Renders are asked for uncompressed HTML (the nonce must be replaceable);
 *   answers from the cache are gzipped when the client accepts it.
 * Not guaranteed: that a visitor sees a render younger than `maxAgeMs`.
 */
import type http from 'node:http';
import { gzipSync } from 'node:zlib';

const REPLAYED_HEADERS = ['content-type', 'vary', 'link', 'cache-control'] as const;
const RSC_HEADERS = ['rsc', 'next-router-prefetch', 'next-router-state-tree', 'next-router-segment-prefetch'];

interface Entry {
  atMs: number;
  nonce: string;
  body: string;
  headers: Partial<Record<(typeof REPLAYED_HEADERS)[number], string>>;
}

export interface PageCacheOptions {
  /** Full paths (base path included) whose HTML may be shared, e.g. `['/ops', '/ops/']`. */
  paths: readonly string[];
  maxAgeMs: number;
  maxEntries?: number;
  monotonicMs?: () => number;
}

export interface PageCache {
  /**
   * Answers `req` from the cache, or renders it through `render` (capturing
   * the HTML for the next visitors); false when the request is not cacheable
   * (then the caller renders as usual). `nonce` is this response's CSP nonce.
   */
  serve(req: http.IncomingMessage, res: http.ServerResponse, nonce: string, render: () => void): boolean;
}

export function pageCache(options: PageCacheOptions): PageCache {
  const paths = new Set(options.paths);
  const maxEntries = options.maxEntries ?? 64;
  const mono = options.monotonicMs ?? (() => performance.now());
  const entries = new Map<string, Entry>();
  const rendering = new Map<string, Promise<Entry | null>>();

  const cacheable = (req: http.IncomingMessage): string | null => {
    if (options.maxAgeMs <= 0 || req.method !== 'GET') return null;
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    if (!paths.has(query < 0 ? url : url.slice(0, query))) return null;
    if (url.includes('_rsc=') || RSC_HEADERS.some((name) => req.headers[name] !== undefined)) return null;
    return url;
  };

  const fresh = (key: string): Entry | null => {
    const entry = entries.get(key);
    return entry && mono() - entry.atMs <= options.maxAgeMs ? entry : null;
  };

  return {
    serve(req, res, nonce, render) {
      const key = cacheable(req);
      if (key === null) return false;
      const hit = fresh(key);
      if (hit) {
        reply(req, res, hit, nonce);
        return true;
      }
      const shared = rendering.get(key);
      if (shared) {
        void shared.then((entry) => (entry ? reply(req, res, entry, nonce) : render()));
        return true;
      }
      const startedMs = mono();
      const done = capture(req, res, nonce).then((entry) => {
        rendering.delete(key);
        if (entry === null) return null;
        const stored = { ...entry, atMs: startedMs };
        entries.delete(key);
        entries.set(key, stored);
        while (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
        return stored;
      });
      rendering.set(key, done);
      render();
      return true;
    },
  };
}

/** Tees the rendered body; resolves with it once the response finished as a 200 HTML page, else null. */
function capture(req: http.IncomingMessage, res: http.ServerResponse, nonce: string): Promise<Omit<Entry, 'atMs'> | null> {
  delete req.headers['accept-encoding'];
  const chunks: Buffer[] = [];
  const keep = (chunk: unknown, encoding?: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    if (typeof chunk === 'string') chunks.push(Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'));
    else chunks.push(Buffer.from(chunk as Uint8Array));
  };
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => http.ServerResponse;
  res.write = ((chunk: unknown, ...rest: unknown[]) => (keep(chunk, rest[0]), write(chunk, ...rest))) as typeof res.write;
  res.end = ((chunk?: unknown, ...rest: unknown[]) => (keep(chunk, rest[0]), end(chunk, ...rest))) as typeof res.end;
  return new Promise((resolve) => {
    res.once('close', () => {
      const type = String(res.getHeader('content-type') ?? '');
      if (!res.writableFinished || res.statusCode !== 200 || !type.startsWith('text/html') || res.getHeader('content-encoding')) return resolve(null);
      const headers: Entry['headers'] = {};
      for (const name of REPLAYED_HEADERS) {
        const value = res.getHeader(name);
        if (value !== undefined) headers[name] = String(value);
      }
      resolve({ nonce, body: Buffer.concat(chunks).toString('utf8'), headers });
    });
  });
}

function reply(req: http.IncomingMessage, res: http.ServerResponse, entry: Entry, nonce: string): void {
  const swap = (text: string) => text.split(entry.nonce).join(nonce);
  for (const [name, value] of Object.entries(entry.headers)) res.setHeader(name, swap(value));
  let body: Buffer = Buffer.from(swap(entry.body), 'utf8');
  if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
    body = gzipSync(body, { level: 5 });
    res.setHeader('content-encoding', 'gzip');
  }
  res.setHeader('content-length', body.length);
  res.writeHead(200);
  res.end(body);
}
