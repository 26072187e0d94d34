/**
 * The dashboard's base path (e.g. `/ops/leaseboard`), for everything that does
 * not go through Next's `<Link>`/router: raw `fetch()` calls, copied absolute
 * links, favicons set from script.
 *
 * Source: `NEXT_PUBLIC_LEASEBOARD_BASE_PATH`, inlined by Next at build time
 * into both the server and the browser bundle (like `basePath` itself, which
 * next.config.js reads from `LEASEBOARD_BASE_PATH`). next.config.js should set
 * it from the same variable so the two can never disagree.
 *
 * Guarantees: `withBasePath` returns a root-relative path that starts with the
 * base path exactly once; the base path never ends with `/`.
 * Non-guarantees: does not validate that the value matches next.config.js.
 */

function normalize(raw: string | undefined): string {
  if (!raw || raw === '/') return '';
  const withSlash = raw.startsWith('/') ? raw : `/${raw}`;
  return withSlash.replace(/\/+$/, '');
}

const basePath: string = normalize(process.env.NEXT_PUBLIC_LEASEBOARD_BASE_PATH);

/** `/api/v1/schedulers` → `/ops/leaseboard/api/v1/schedulers`. `path` must start with `/`. */
export function withBasePath(path: string): string {
  if (!path.startsWith('/')) throw new Error(`withBasePath: path must start with "/": ${path}`);
  return `${basePath}${path}`;
}

/**
 * For the server to check once at start: the base path Next routes with
 * (next.config.js reads LEASEBOARD_BASE_PATH) must equal the one inlined for
 * raw fetches, or every browser fetch would miss. Returns a message, or null.
 */
export function basePathMismatch(routedWith: string | undefined): string | null {
  const routed = normalize(routedWith);
  if (routed === basePath) return null;
  return `leaseboard: base path mismatch — Next routes under "${routed}" (LEASEBOARD_BASE_PATH) but the build inlined "${basePath}" (NEXT_PUBLIC_LEASEBOARD_BASE_PATH); browser fetches would miss. Set both at build time (next.config.js can derive one from the other).`;
}
