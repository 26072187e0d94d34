/**
 * Connection strings as libpq reads them, for node-postgres (which takes one
 * host): `postgres://user@h1:5432,h2:5433/db?target_session_attrs=read-write`
 * names every node of a replicated cluster, tried in order.
 *
 * Guarantees: each node gets an opaque id (`node-1`, `node-2` … in the order
 * written) that may be shown and exported; its host never leaves this module
 * except in the node's own connection string. A node's string is the given
 * one with that node alone as the host and without `target_session_attrs`
 * (node-postgres does not know it). Bad input throws DatabaseUrlError naming
 * what is wrong, never the password.
 * Not supported: libpq's keyword/value form (`host=a,b port=1,2`) and
 * `hostaddr`; a URL without hosts (a Unix socket given as `?host=`) is one node.
 */

export type TargetSessionAttrs = 'any' | 'read-write' | 'read-only' | 'primary' | 'standby' | 'prefer-standby';

const TARGETS: readonly TargetSessionAttrs[] = ['any', 'read-write', 'read-only', 'primary', 'standby', 'prefer-standby'];

export interface DatabaseNode {
  /** Opaque and stable for a given URL: `node-N`, N its position. */
  readonly id: string;
  /** Host and port to connect to; null when the string names none (pg's defaults and `?host=` apply). */
  readonly address: { host: string; port: number } | null;
  /** The connection string for this node alone. */
  readonly url: string;
}

export interface DatabaseTargets {
  readonly nodes: readonly DatabaseNode[];
  /** `target_session_attrs`, libpq's default `any` when absent. */
  readonly target: TargetSessionAttrs;
}

class DatabaseUrlError extends Error {
  constructor(message: string) {
    super(`database url: ${message}`);
    this.name = 'DatabaseUrlError';
  }
}

const URL_PARTS = /^(postgres(?:ql)?:\/\/)([^/?#]*)([^?#]*)(\?[^#]*)?(#.*)?$/i;

/** `h1:5432,[::1]:5433,h3` → its entries; commas inside brackets do not split. */
function splitHosts(list: string): string[] {
  const hosts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    if (list[i] === '[') depth++;
    else if (list[i] === ']') depth--;
    else if (list[i] === ',' && depth === 0) {
      hosts.push(list.slice(start, i));
      start = i + 1;
    }
  }
  hosts.push(list.slice(start));
  return hosts;
}

function addressOf(entry: string): { host: string; port: number } {
  const match = /^(\[[^\]]+\]|[^:[\]]*)(?::(\d{1,5}))?$/.exec(entry);
  if (!match || match[1] === '') throw new DatabaseUrlError(`a host list entry must be host[:port], got ${JSON.stringify(entry)}`);
  const port = match[2] === undefined ? 5432 : Number(match[2]);
  if (port < 1 || port > 65535) throw new DatabaseUrlError(`port ${port} is out of range`);
  return { host: decodeURIComponent(match[1]!.replace(/^\[|\]$/g, '')), port };
}

export function parseDatabaseUrl(url: string): DatabaseTargets {
  const parts = URL_PARTS.exec(url);
  if (!parts) throw new DatabaseUrlError('expected postgres://[user[:password]@]host[:port][,host[:port]…][/database][?…]');
  const [, scheme, authority, path, query = '', fragment = ''] = parts as unknown as [string, string, string, string, string?, string?];
  const at = authority.lastIndexOf('@');
  const userinfo = authority.slice(0, at + 1);
  const hostList = authority.slice(at + 1);
  let target: TargetSessionAttrs = 'any';
  const kept = query
    .slice(1)
    .split('&')
    .filter((pair) => {
      if (pair === '') return false;
      const [key, value = ''] = pair.split('=') as [string, string?];
      if (decodeURIComponent(key) !== 'target_session_attrs') return true;
      const wanted = decodeURIComponent(value) as TargetSessionAttrs;
      if (!TARGETS.includes(wanted)) throw new DatabaseUrlError(`target_session_attrs must be one of ${TARGETS.join(', ')}`);
      target = wanted;
      return false;
    });
  const suffix = `${path}${kept.length > 0 ? `?${kept.join('&')}` : ''}${fragment}`;
  if (hostList === '') return { nodes: [{ id: 'node-1', address: null, url: `${scheme}${userinfo}${suffix}` }], target };
  const nodes = splitHosts(hostList).map((entry, i) => ({ id: `node-${i + 1}`, address: addressOf(entry), url: `${scheme}${userinfo}${entry}${suffix}` }));
  return { nodes, target };
}

/** Display-safe description of a connection string: never the password. */
export function describeDatabaseUrl(url: string): string {
  const parts = URL_PARTS.exec(url);
  if (!parts) return '(unparseable DATABASE_URL)';
  const authority = parts[2]!;
  const at = authority.lastIndexOf('@');
  const user = at < 0 ? '' : authority.slice(0, at).split(':')[0]!;
  return `${parts[1]!.toLowerCase()}${user ? `${user}@` : ''}${authority.slice(at + 1)}${parts[3]}`;
}

/** The same connection string (every node, every parameter) with another user and password. */
export function withCredentials(url: string, user: string, password: string): string {
  const parts = URL_PARTS.exec(url);
  if (!parts) throw new DatabaseUrlError('expected postgres://[user[:password]@]host[:port][,host[:port]…][/database][?…]');
  const [, scheme, authority] = parts as unknown as [string, string, string];
  const hosts = authority.slice(authority.lastIndexOf('@') + 1);
  return `${scheme}${encodeURIComponent(user)}:${encodeURIComponent(password)}@${hosts}${url.slice(scheme.length + authority.length)}`;
}

/** The database a connection string names (percent-decoded), or null when it names none. */
export function databaseOf(url: string): string | null {
  const parts = URL_PARTS.exec(url);
  if (!parts) throw new DatabaseUrlError('expected postgres://[user[:password]@]host[:port][,host[:port]…][/database][?…]');
  const name = decodeURIComponent(parts[3]!.replace(/^\//, ''));
  return name === '' ? null : name;
}
