/**
 * Which `Host` headers the dashboard answers: a defence against DNS
 * rebinding, where a page on `evil.example` re-points its own name at the
 * dashboard's address and reads it with the browser's network position (the
 * browser then sends `Host: evil.example`).
 *
 * Answered: the public URL's host (LEASEBOARD_PUBLIC_URL), the loopback names
 * (`localhost`, `127.0.0.1`, `[::1]`), the address the server listens on
 * when it is one address (not 0.0.0.0 or ::), and the names in
 * LEASEBOARD_ALLOWED_HOSTS. Any port goes with an allowed name (a proxy may
 * forward `host:8443`). A request without a Host (HTTP/1.0) is answered: a
 * browser always sends one.
 *
 * Pure: the settings are arguments.
 */

const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];
const WILDCARDS = new Set(['0.0.0.0', '::', '[::]', '']);

/** The host part of a Host header, lower case, without the port. */
function hostName(header: string): string {
  const host = header.trim().toLowerCase();
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  const colon = host.lastIndexOf(':');
  return (colon < 0 ? host : host.slice(0, colon)).replace(/\.$/, '');
}

export interface AllowedHostsOptions {
  /** LEASEBOARD_PUBLIC_URL, or null. */
  publicUrl: string | null;
  /** LEASEBOARD_ALLOWED_HOSTS: extra names (`host` or `host:port`; the port is ignored). */
  extra: readonly string[];
  /** The address the server listens on (HOST). */
  listenHost: string;
}

export function allowedHosts(options: AllowedHostsOptions): (header: string | undefined) => boolean {
  const names = new Set(LOOPBACK);
  if (options.publicUrl) names.add(new URL(options.publicUrl).hostname.toLowerCase());
  for (const name of options.extra) if (name.trim()) names.add(hostName(name));
  const listen = options.listenHost.trim().toLowerCase();
  if (!WILDCARDS.has(listen)) names.add(listen.includes(':') && !listen.startsWith('[') ? `[${listen}]` : listen);
  return (header) => header === undefined || names.has(hostName(header));
}

/** Parses LEASEBOARD_ALLOWED_HOSTS: names separated by commas or spaces. */
export function parseAllowedHosts(raw: string | null | undefined): string[] {
  return (raw ?? '').split(/[\s,]+/).filter((name) => name !== '');
}
