/**
 * The dashboard's public URL: one setting, `LEASEBOARD_PUBLIC_URL` — absolute,
 * with the base path (`https://ops.example.org/leaseboard`) — for every place
 * that needs to know where people reach the dashboard: links in alerts
 * (lib/alerts/config.ts), the same-origin check of writes and the session
 * cookie's `Secure` flag (lib/auth/config.ts).
 *
 * The two settings it replaces keep working as deprecated aliases, each with
 * a warning to print at start: `LEASEBOARD_EXTERNAL_URL` (the same URL) and
 * `LEASEBOARD_PUBLIC_ORIGIN` (an origin; the base path is added). Set beside
 * the new one, they are ignored (with a warning); two aliases that disagree
 * are refused.
 *
 * Guarantees: pure (the environment is an argument); a bad value throws
 * `PublicUrlError` naming the variable, never echoing credentials. Unset:
 * null — the server then uses the address it listens on (scripts/serve.ts).
 */

import { parseBasePath } from './base-path';
import { PublicUrlError } from './public-url-error';

const PUBLIC_URL_VARIABLE = 'LEASEBOARD_PUBLIC_URL';

export { PublicUrlError };

export interface PublicUrl {
  /** Absolute, with the base path, without a trailing slash: links are `${url}/schedulers/…`. */
  url: string;
  origin: string;
  /** Served over https: cookies get `Secure` (and the `__Host-` prefix). */
  secure: boolean;
  /** Which variable it came from. */
  variable: string;
  /** Deprecation notes to print at start. */
  warnings: string[];
}

/** An absolute http(s) URL without credentials, query or fragment; trailing slashes dropped. Throws PublicUrlError. */
export function absoluteBaseUrl(variable: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new PublicUrlError(variable, 'must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new PublicUrlError(variable, `must use http or https, got ${url.protocol}`);
  if (url.username || url.password) throw new PublicUrlError(variable, 'must not carry credentials (use a proxy or a secret-aware deployment)');
  if (url.search || url.hash) throw new PublicUrlError(variable, 'must not have a query or fragment');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

type Env = Readonly<Record<string, string | undefined>>;

const value = (env: Env, variable: string) => env[variable]?.trim() || null;

export function parsePublicUrl(env: Env): PublicUrl | null {
  const from = (variable: string, url: string, warnings: string[]): PublicUrl => ({
    url,
    origin: new URL(url).origin,
    secure: url.startsWith('https:'),
    variable,
    warnings,
  });
  const external = value(env, 'LEASEBOARD_EXTERNAL_URL');
  const origin = value(env, 'LEASEBOARD_PUBLIC_ORIGIN');
  const current = value(env, PUBLIC_URL_VARIABLE);
  if (current !== null) {
    const ignored = [external && 'LEASEBOARD_EXTERNAL_URL', origin && 'LEASEBOARD_PUBLIC_ORIGIN'].filter(Boolean);
    const warnings = ignored.map((old) => `${old} is deprecated and ignored: ${PUBLIC_URL_VARIABLE} is set`);
    return from(PUBLIC_URL_VARIABLE, absoluteBaseUrl(PUBLIC_URL_VARIABLE, current), warnings);
  }
  const deprecated = (old: string) => `${old} is deprecated: set ${PUBLIC_URL_VARIABLE} (the dashboard's absolute URL, with its base path) instead`;
  const fromOrigin = (() => {
    if (origin === null) return null;
    const base = absoluteBaseUrl('LEASEBOARD_PUBLIC_ORIGIN', origin);
    return `${new URL(base).origin}${parseBasePath(env.LEASEBOARD_BASE_PATH)}`;
  })();
  if (external !== null) {
    const url = absoluteBaseUrl('LEASEBOARD_EXTERNAL_URL', external);
    if (fromOrigin !== null && new URL(fromOrigin).origin !== new URL(url).origin) {
      throw new PublicUrlError('LEASEBOARD_PUBLIC_ORIGIN', `names another origin than LEASEBOARD_EXTERNAL_URL; set ${PUBLIC_URL_VARIABLE} alone`);
    }
    return from('LEASEBOARD_EXTERNAL_URL', url, [deprecated('LEASEBOARD_EXTERNAL_URL'), ...(origin === null ? [] : [deprecated('LEASEBOARD_PUBLIC_ORIGIN')])]);
  }
  return fromOrigin === null ? null : from('LEASEBOARD_PUBLIC_ORIGIN', fromOrigin, [deprecated('LEASEBOARD_PUBLIC_ORIGIN')]);
}
