/**
 * Security headers, decided in one place for every response the dashboard
 * server sends (./dashboard-server.ts applies them before Next.js answers).
 *
 * - Every response: `X-Content-Type-Options: nosniff`, `X-Frame-Options:
 *   DENY`, `Referrer-Policy: same-origin` (a copied `?at=` link never leaks
 *   to another origin), a Permissions-Policy denying powerful features, and
 *   `Cross-Origin-Opener-Policy: same-origin`.
 * - Pages: a Content-Security-Policy with a fresh nonce per response
 *   (`'strict-dynamic'`, no `'unsafe-inline'` for scripts; Next.js reads the
 *   nonce from the request's CSP header and puts it on its own scripts),
 *   `frame-ancestors 'none'`, `form-action 'self'`, `base-uri 'none'`,
 *   `object-src 'none'`. Styles allow inline attributes (charts use `style=`).
 * - API routes: a CSP that allows nothing.
 *
 * Pure: the nonce and the path are arguments.
 */

function pageContentSecurityPolicy(nonce: string, options: { dev: boolean }): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.dev ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), bluetooth=(), hid=()';

const COMMON_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
  'permissions-policy': PERMISSIONS_POLICY,
  'cross-origin-opener-policy': 'same-origin',
});

export interface SecurityHeaders {
  /** Headers for the response. */
  response: Record<string, string>;
  /** The page CSP, also to be set on the request so Next.js finds the nonce; null for non-pages. */
  pagePolicy: string | null;
}

/** What a response to `pathname` (the full path, base path included) must carry. */
export function securityHeadersFor(pathname: string, basePath: string, nonce: string, options: { dev: boolean }): SecurityHeaders {
  const local = pathname.startsWith(basePath) ? pathname.slice(basePath.length) : pathname;
  if (local.startsWith('/api/')) {
    return { response: { ...COMMON_SECURITY_HEADERS, 'content-security-policy': API_CONTENT_SECURITY_POLICY }, pagePolicy: null };
  }
  if (local.startsWith('/_next/static/') || local.startsWith('/_next/image')) return { response: { ...COMMON_SECURITY_HEADERS }, pagePolicy: null };
  const pagePolicy = pageContentSecurityPolicy(nonce, options);
  return { response: { ...COMMON_SECURITY_HEADERS, 'content-security-policy': pagePolicy }, pagePolicy };
}
