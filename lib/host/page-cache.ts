/**
 * A micro-cache for the overview page's server-rendered HTML, so a burst of
 * visitors (an alert that links 50 people to the dashboard) costs one render
 * per `maxAgeMs`, not one each.
 *
 * The page is the same for every visitor: identity, sessions and the demo
 * panel are fetched by the browser, and the server render shows the shared
 * list read, which is itself reused for the same `maxAgeMs` (the service's
 * LEASEBOARD_LIST_MAX_AGE). Only the CSP nonce differs per response: each
 * answer from the cache carries the nonce of ITS response — every occurrence
 * of the rendering's nonce, in the body and the Link header, is replaced —
 * so a nonce is never sent twice. The replacing is cheap: an entry is cut at
 * the rendering's nonce once, and its parts are compressed once
 * (./spliced-gzip.ts); a response only joins them around its own nonce.
 *
 * Guarantees
 * - Only GET of the configured paths (the query string part of the key — as
 *   `keyOf` spells it, so made-up parameters share an entry — and the
 *   viewer's time cookie: the page shows times in its zone), never a
 *   client-side navigation (RSC requests), never a non-200 or non-HTML answer.
 * - Concurrent misses of one key share one render (single-flight), also when
 *   its visitor leaves before it finished (then one of the waiters renders
 *   again for all, never each its own: a herd of renders took 17 s here). The
 *   visitor whose request found the entry expired gets the new render; the
 *   others, while it renders, get the previous entry if it is at most
 *   `staleMs` past its max age (else they wait for the render). So a render
 *   (hundreds of ms at 1,000 schedulers) never holds up every visitor once a
 *   second, and an entry more than `maxAgeMs + staleMs` past the end of its
 *   render (monotonic clock) is never served. Aging from the end, not the
 *   start, bounds rendering to a share T / (T + maxAgeMs) of the time for a
 *   render of T ms: aged from its start, a render slower than maxAgeMs (1.3 s
 *   under 64 connections here) was stale at birth, and the server rendered
 *   back to back. At most `maxEntries` keys are kept (the oldest go
 *   first). `maxAgeMs` 0 disables it.
 * - Renders are asked for uncompressed HTML (the nonce must be replaceable);
 *   answers from the cache are gzipped when the client accepts it, and
 *   carry `Vary: Accept-Encoding`.
 * Not guaranteed: that a visitor sees a render younger than `maxAgeMs`.
 */
import type http from 'node:http';
import { parseTimeChoice, timeChoiceValue, timeCookieIn } from '../api/time-cookie';
import { acceptsGzip } from '../http/accept-encoding';
import { gzipWith, plainWith, type SplicedPage, splicePage } from './spliced-gzip';

const REPLAYED_HEADERS = ['content-type', 'vary', 'link', 'cache-control'] as const;
const RSC_HEADERS = ['rsc', 'next-router-prefetch', 'next-router-state-tree', 'next-router-segment-prefetch'];

/** A render as it finished: its nonce, its HTML and the headers replayed from it. */
interface Rendered {
  nonce: string;
  body: string;
  headers: Partial<Record<(typeof REPLAYED_HEADERS)[number], string>>;
}

/** A render ready to answer with any nonce: each header and the body cut at the rendering's nonce. */
interface Entry {
  atMs: number;
  headers: ReadonlyArray<readonly [name: string, parts: readonly string[]]>;
  page: SplicedPage;
}

/** The answer depends on Accept-Encoding too (gzipped or not). */
const varyOf = (vary: string | undefined) => (vary === undefined ? 'Accept-Encoding' : /\baccept-encoding\b/i.test(vary) ? vary : `${vary}, Accept-Encoding`);

function entryOf(rendered: Rendered, atMs: number): Entry {
  const replayed = { ...rendered.headers, vary: varyOf(rendered.headers.vary) };
  return {
    atMs,
    headers: Object.entries(replayed).map(([name, value]) => [name, value.split(rendered.nonce)] as const),
    page: splicePage(rendered.body, rendered.nonce),
  };
}

export interface PageCacheOptions {
  /** Full paths (base path included) whose HTML may be shared, e.g. `['/ops', '/ops/']`. */
  paths: readonly string[];
  maxAgeMs: number;
  maxEntries?: number;
  /** How long past its max age an entry may still answer while its successor renders (default 2 s). */
  staleMs?: number;
  monotonicMs?: () => number;
  /**
   * The query's part of the key: the parameters the page reads, in one spelling (default: the query as sent).
   * Made-up parameters (`?r=1`, `?r=2`…) must not each cost a render and an entry.
   */
  keyOf?: (query: URLSearchParams) => string;
}

const DEFAULT_STALE_MS = 2_000;

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
  const staleMs = options.staleMs ?? DEFAULT_STALE_MS;
  const mono = options.monotonicMs ?? (() => performance.now());
  const entries = new Map<string, Entry>();
  const rendering = new Map<string, Promise<Entry | 'aborted' | null>>();

  const cacheable = (req: http.IncomingMessage): string | null => {
    if (options.maxAgeMs <= 0 || req.method !== 'GET') return null;
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const path = query < 0 ? url : url.slice(0, query);
    if (!paths.has(path)) return null;
    if (url.includes('_rsc=') || RSC_HEADERS.some((name) => req.headers[name] !== undefined)) return null;
    const key = options.keyOf ? `${path}?${options.keyOf(new URLSearchParams(query < 0 ? '' : url.slice(query + 1)))}` : url;
    const time = parseTimeChoice(timeCookieIn(req.headers.cookie));
    return time === null ? key : `${key}\n${timeChoiceValue(time)}`;
  };

  const fresh = (key: string): Entry | null => {
    const entry = entries.get(key);
    return entry && mono() - entry.atMs <= options.maxAgeMs ? entry : null;
  };
  /** While a newer render of `key` is in flight: the previous entry, if it is not more than `staleMs` past its max age. */
  const stale = (key: string): Entry | null => {
    const entry = entries.get(key);
    return entry && mono() - entry.atMs <= options.maxAgeMs + staleMs ? entry : null;
  };

  const cache: PageCache = {
    serve(req, res, nonce, render) {
      const key = cacheable(req);
      if (key === null) return false;
      const hit = fresh(key);
      if (hit) {
        reply(req, res, hit, nonce);
        return true;
      }
      const shared = rendering.get(key);
      const previous = shared ? stale(key) : null;
      if (previous) {
        reply(req, res, previous, nonce);
        return true;
      }
      if (shared) {
        void shared.then((entry) => {
          if (res.destroyed) return; // this visitor left too
          if (entry === 'aborted') {
            // Its visitor left before the render finished: one of us renders again, the others share it.
            if (!cache.serve(req, res, nonce, render)) render();
          } else if (entry) reply(req, res, entry, nonce);
          else render();
        });
        return true;
      }
      const done = capture(req, res, nonce).then((rendered) => {
        rendering.delete(key);
        if (rendered === null || rendered === 'aborted') return rendered;
        // Aged from when the render finished: a render slower than maxAgeMs (a loaded machine) must not be followed at once by the next.
        const stored = entryOf(rendered, mono());
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
  return cache;
}

/** Tees the rendered body; resolves with it once the response finished as a 200 HTML page, else null. */
/** 'aborted': the connection closed before the render finished; null: not a 200 HTML page. */
function capture(req: http.IncomingMessage, res: http.ServerResponse, nonce: string): Promise<Rendered | 'aborted' | null> {
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
      if (!res.writableFinished) return resolve('aborted');
      if (res.statusCode !== 200 || !type.startsWith('text/html') || res.getHeader('content-encoding')) return resolve(null);
      const headers: Rendered['headers'] = {};
      for (const name of REPLAYED_HEADERS) {
        const value = res.getHeader(name);
        if (value !== undefined) headers[name] = String(value);
      }
      resolve({ nonce, body: Buffer.concat(chunks).toString('utf8'), headers });
    });
  });
}

function reply(req: http.IncomingMessage, res: http.ServerResponse, entry: Entry, nonce: string): void {
  for (const [name, parts] of entry.headers) res.setHeader(name, parts.join(nonce));
  const gzip = acceptsGzip(req.headers['accept-encoding']);
  const body = gzip ? gzipWith(entry.page, nonce) : plainWith(entry.page, nonce);
  if (gzip) res.setHeader('content-encoding', 'gzip');
  res.setHeader('content-length', body.length);
  res.writeHead(200);
  res.end(body);
}
