/**
 * Cross-site request refusal for every state-changing route.
 *
 * A write must (1) carry the `x-leaseboard-action` header — a custom header
 * a cross-site page can only send after a CORS preflight we never approve —
 * and (2) when the browser says where it came from, come from this origin:
 * `Sec-Fetch-Site` must be `same-origin`, and `Origin`'s host must be the
 * dashboard's (LEASEBOARD_PUBLIC_URL's, else `X-Forwarded-Host`/`Host`, as
 * Next.js checks server actions). Clients that send neither header (curl, a
 * CLI) are not browsers and cannot be driven by another site.
 *
 * Guarantee: pure — headers in, verdict out.
 */
import type { AuthConfig } from './config';

export const ACTION_HEADER = 'x-leaseboard-action';

export type CsrfVerdict = { ok: true } | { ok: false; message: string };

function expectedHost(config: AuthConfig, headers: Headers): string | null {
  if (config.publicUrl !== null) return new URL(config.publicUrl.origin).host;
  const forwarded = headers.get('x-forwarded-host')?.split(',')[0]?.trim();
  return forwarded || headers.get('host');
}

export function checkSameOrigin(config: AuthConfig, headers: Headers): CsrfVerdict {
  if (headers.get(ACTION_HEADER) !== '1') return { ok: false, message: `a write needs the ${ACTION_HEADER}: 1 header` };
  const site = headers.get('sec-fetch-site');
  if (site !== null && site !== 'same-origin') return { ok: false, message: `cross-site request refused (Sec-Fetch-Site: ${site})` };
  const origin = headers.get('origin');
  if (origin !== null) {
    let host: string;
    try {
      host = new URL(origin).host;
    } catch {
      return { ok: false, message: 'cross-site request refused (unreadable Origin)' };
    }
    if (host !== expectedHost(config, headers)) return { ok: false, message: 'cross-site request refused (Origin is not this dashboard)' };
  }
  return { ok: true };
}
