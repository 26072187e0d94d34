/**
 * Lists of proxy addresses from the environment (IPs or CIDRs), and how
 * broad each entry is.
 *
 * Trusting a proxy means trusting what it says about the client: its
 * identity header (LEASEBOARD_TRUSTED_PROXIES, the SSO proxy) or its
 * X-Forwarded-For (./client-key.ts). An entry is BROAD when it covers
 * loopback (any local process, not just the proxy) or more than 256
 * addresses (wider than an IPv4 /24 or an IPv6 /120: a pod or node range,
 * where any neighbour could pose as the proxy).
 *
 * Guarantees: pure (the environment is an argument); a malformed entry
 * throws `ProxyListError` naming the variable; `broad` lists, with the
 * reason, every entry a caller must refuse or at least announce.
 */
import net from 'node:net';
import proxyAddr from 'proxy-addr';
import { checkedEnv, ConfigError, settingFrom } from '../config';

export class ProxyListError extends Error {
  constructor(
    readonly variable: string,
    readonly problem: string,
  ) {
    super(`${variable}: ${problem}`);
    this.name = 'ProxyListError';
  }
}

export interface ProxyList {
  /** The entries as written. */
  readonly entries: readonly string[];
  /** Entries covering loopback or more than 256 addresses, each with why. */
  readonly broad: readonly { entry: string; why: string }[];
  trusts(address: string): boolean;
}

/** The most addresses one trusted entry may cover without being broad. */
const MAX_NARROW_ADDRESSES = 256;

/** proxy-addr's named ranges, as CIDRs (its own definitions). */
const NAMED: Record<string, string[]> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

interface Cidr {
  address: string;
  family: 'ipv4' | 'ipv6';
  bits: number;
}

function parseCidr(entry: string): Cidr {
  const [rawAddress, rawPrefix] = entry.split('/') as [string, string | undefined];
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(rawAddress);
  const family = mapped || net.isIPv4(rawAddress) ? 'ipv4' : net.isIPv6(rawAddress) ? 'ipv6' : null;
  if (family === null) throw new Error(`${entry}: not an IP address or CIDR`);
  const address = mapped ? mapped[1]! : rawAddress;
  const width = family === 'ipv4' ? 32 : 128;
  let bits = width;
  if (rawPrefix !== undefined && /^\d{1,3}$/.test(rawPrefix)) bits = Number(rawPrefix) - (mapped ? 96 : 0);
  else if (rawPrefix !== undefined && family === 'ipv4' && net.isIPv4(rawPrefix)) {
    bits = rawPrefix.split('.').reduce((sum, octet) => sum + [...Number(octet).toString(2)].filter((bit) => bit === '1').length, 0);
  } else if (rawPrefix !== undefined) throw new Error(`${entry}: not a prefix length`);
  if (bits < 0 || bits > width) throw new Error(`${entry}: not a prefix length`);
  return { address, family, bits };
}

/** Why one entry (an address or a CIDR) is broad, or null. */
function broadness(entry: string): string | null {
  const { address, family, bits } = parseCidr(entry);
  const range = new net.BlockList();
  range.addSubnet(address, bits, family);
  const loopback = family === 'ipv4' ? address.startsWith('127.') || range.check('127.0.0.1', 'ipv4') : range.check('::1', 'ipv6');
  if (loopback) return 'covers loopback: any local process could pose as the proxy';
  const hostBits = (family === 'ipv4' ? 32 : 128) - bits;
  if (2 ** hostBits > MAX_NARROW_ADDRESSES) return `covers 2^${hostBits} addresses (more than ${MAX_NARROW_ADDRESSES}): any of them could pose as the proxy`;
  return null;
}

/** Parses a comma-separated list of IPs, CIDRs and proxy-addr's names; null when empty. */
export function parseProxyList(variable: string, raw: string | undefined): ProxyList | null {
  const entries = (raw ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  if (entries.length === 0) return null;
  let trust: (address: string, hop: number) => boolean;
  const broad: { entry: string; why: string }[] = [];
  try {
    trust = proxyAddr.compile(entries);
    for (const entry of entries) {
      for (const cidr of NAMED[entry] ?? [entry]) {
        const why = broadness(cidr);
        if (why !== null) {
          broad.push({ entry, why });
          break;
        }
      }
    }
  } catch (error) {
    throw new ProxyListError(variable, `not a list of IPs or CIDRs (${(error as Error).message})`);
  }
  return Object.freeze({ entries: Object.freeze(entries), broad: Object.freeze(broad), trusts: (address: string) => address !== '' && trust(address, 0) });
}

const HEADER_NAME = /^[a-z0-9-]{1,64}$/;

/** What the proxies in front of the dashboard may tell it, from the environment. */
export interface ProxyTrust {
  /** The SSO proxy: its identity header counts only from these addresses. */
  identity: { header: string; groupsHeader: string | null; proxies: ProxyList } | null;
  /** Proxies whose X-Forwarded-For names the client (for per-client limits, never identity): the SSO proxy's and LEASEBOARD_FORWARDED_FOR_PROXIES. */
  forwarders: readonly ProxyList[];
  /** Lines to print at start: broad entries accepted because LEASEBOARD_ALLOW_BROAD_TRUSTED_PROXIES=1. */
  notes: readonly string[];
}

const ALLOW_BROAD_VARIABLE = 'LEASEBOARD_ALLOW_BROAD_TRUSTED_PROXIES';

function headerName(variable: string, raw: string | undefined): string | null {
  const name = raw?.trim().toLowerCase();
  if (!name) return null;
  if (!HEADER_NAME.test(name)) throw new ProxyListError(variable, 'must be a header name of letters, digits and dashes');
  return name;
}

/**
 * LEASEBOARD_AUTH_HEADER, LEASEBOARD_AUTH_GROUPS_HEADER, LEASEBOARD_TRUSTED_PROXIES (required with the
 * header; a broad entry is refused unless LEASEBOARD_ALLOW_BROAD_TRUSTED_PROXIES=1) and
 * LEASEBOARD_FORWARDED_FOR_PROXIES. Throws ProxyListError naming the variable.
 */
export function parseProxyTrust(env: Record<string, string | undefined>): ProxyTrust {
  const forwardedFor = parseProxyList('LEASEBOARD_FORWARDED_FOR_PROXIES', env.LEASEBOARD_FORWARDED_FOR_PROXIES);
  const header = headerName('LEASEBOARD_AUTH_HEADER', env.LEASEBOARD_AUTH_HEADER);
  if (header === null) return Object.freeze({ identity: null, forwarders: forwardedFor ? [forwardedFor] : [], notes: [] });
  const groupsHeader = headerName('LEASEBOARD_AUTH_GROUPS_HEADER', env.LEASEBOARD_AUTH_GROUPS_HEADER);
  const proxies = parseProxyList('LEASEBOARD_TRUSTED_PROXIES', env.LEASEBOARD_TRUSTED_PROXIES);
  if (proxies === null) {
    throw new ProxyListError('LEASEBOARD_TRUSTED_PROXIES', 'required with LEASEBOARD_AUTH_HEADER: the addresses of the SSO proxy (IPs or CIDRs)');
  }
  let allowBroad: boolean;
  try {
    allowBroad = settingFrom(env, 'allowBroadTrustedProxies');
  } catch (error) {
    if (error instanceof ConfigError) throw new ProxyListError(ALLOW_BROAD_VARIABLE, error.problems[0]?.problem ?? 'invalid');
    throw error;
  }
  const [first] = proxies.broad;
  if (first && !allowBroad) {
    throw new ProxyListError(
      'LEASEBOARD_TRUSTED_PROXIES',
      `${first.entry} ${first.why}. Name the SSO proxy's own addresses, or set ${ALLOW_BROAD_VARIABLE}=1 to accept that risk`,
    );
  }
  const notes = proxies.broad.map(
    ({ entry, why }) =>
      `LEASEBOARD_TRUSTED_PROXIES: ${entry} ${why} — accepted because ${ALLOW_BROAD_VARIABLE}=1; the proxy must strip ${header}${groupsHeader ? ` and ${groupsHeader}` : ''} from what clients send`,
  );
  return Object.freeze({
    identity: { header, groupsHeader, proxies },
    forwarders: forwardedFor ? [proxies, forwardedFor] : [proxies],
    notes,
  });
}

let cached: ProxyTrust | null = null;

/** The process environment's proxy trust, parsed on first use (the same as lib/auth/config.ts reads). */
export function proxyTrust(): ProxyTrust {
  cached ??= parseProxyTrust(checkedEnv());
  return cached;
}
