/**
 * LEASEBOARD_BASE_PATH, the prefix the dashboard is served under, parsed in one place for every
 * reader: the status service (lib/server/env.ts), the public URL (public-url.ts), the demo's build
 * hash (examples/demo/next-build.ts) and the server's start line (scripts/serve.ts). next.config.js,
 * plain JavaScript loaded by Next, reads the variable itself; lib/client/base-path.ts compares what
 * Next routes under with what the build inlined and says so when they differ.
 *
 * Guarantees: pure; '' at the root, else `/a/b` (one leading slash, none trailing, as Next and the
 * browser's withBasePath spell it); whitespace, `?`, `#`, `\\` and empty segments are refused with
 * `PublicUrlError` naming the variable.
 */
import { PublicUrlError } from './public-url-error';

const BASE_PATH_VARIABLE = 'LEASEBOARD_BASE_PATH';

export function parseBasePath(raw: string | undefined): string {
  const value = (raw ?? '').trim();
  if (value === '' || value === '/') return '';
  const withSlash = (value.startsWith('/') ? value : `/${value}`).replace(/\/+$/, '');
  if (!/^(\/[^/\s?#\\]+)+$/.test(withSlash)) throw new PublicUrlError(BASE_PATH_VARIABLE, 'must be a path such as /ops/leaseboard');
  return withSlash;
}
