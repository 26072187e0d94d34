// Shared HTTP plumbing: proxy lists and how broad they are, whose budget a request spends, and bounded bodies.
import { afterEach, describe, expect, it } from 'vitest';
import { readBoundedText } from './body';
import { addressGroup, clientKey } from './client-key';
import { enablePeerStamping, PEER_HEADER } from './peer';
import { parseProxyList, parseProxyTrust, ProxyListError } from './proxies';

afterEach(() => {
  delete process.env.LEASEBOARD_PEER_STAMP_KEY;
});

describe('trusted proxy lists', () => {
  it.each([
    ['one address', '10.1.2.3', []],
    ['a /24', '10.1.2.0/24', []],
    ['an IPv6 /120', 'fd00::100/120', []],
    ['an IPv4-mapped address', '::ffff:10.1.2.3', []],
    ['a dotted netmask of 256 addresses', '10.1.2.0/255.255.255.0', []],
    ['loopback', '127.0.0.1', [/loopback/]],
    ['another loopback address', '127.0.0.2', [/loopback/]],
    ['IPv6 loopback', '::1', [/loopback/]],
    ["proxy-addr's loopback name", 'loopback', [/loopback/]],
    ['a pod range (/16)', '10.244.0.0/16', [/2\^16 addresses/]],
    ['a /23', '10.1.2.0/23', [/2\^9 addresses/]],
    ['an IPv6 /64', 'fd00::/64', [/2\^64 addresses/]],
    ["proxy-addr's uniquelocal name", 'uniquelocal', [/addresses/]],
    ['half of everything', '0.0.0.0/1', [/loopback|2\^32 addresses/]],
  ])('%s (%s) is broad when it covers loopback or more than 256 addresses', (_what, entry, broad) => {
    expect(parseProxyList('V', entry)!.broad.map((b) => b.why)).toEqual(broad.map((why) => expect.stringMatching(why)));
  });

  it('refuses broad SSO proxies unless explicitly allowed, and then says so at start', () => {
    const env = { LEASEBOARD_AUTH_HEADER: 'x-forwarded-email', LEASEBOARD_TRUSTED_PROXIES: '127.0.0.1' };
    expect(() => parseProxyTrust(env)).toThrow(ProxyListError);
    expect(() => parseProxyTrust(env)).toThrow(/LEASEBOARD_ALLOW_BROAD_TRUSTED_PROXIES=1/);
    const allowed = parseProxyTrust({ ...env, LEASEBOARD_ALLOW_BROAD_TRUSTED_PROXIES: '1' });
    expect(allowed.notes).toEqual([expect.stringMatching(/127\.0\.0\.1 covers loopback.*accepted.*must strip x-forwarded-email/)]);
  });

  it('refuses what is not an address', () => {
    expect(() => parseProxyList('V', '10.0.0.1, proxy.internal')).toThrow(/^V: not a list of IPs or CIDRs/);
  });
});

describe('whose budget a request spends', () => {
  const stamped = (peer: string, extra: Record<string, string> = {}) => {
    const stamp = enablePeerStamping();
    return new Headers({ [PEER_HEADER]: stamp(peer), ...extra });
  };

  it('a client cannot pick its bucket with X-Forwarded-For unless its peer is a configured proxy', () => {
    const none = parseProxyTrust({});
    expect(clientKey(none, stamped('198.51.100.7', { 'x-forwarded-for': '203.0.113.9' }))).toBe('client:198.51.100.7');
    const behind = parseProxyTrust({ LEASEBOARD_FORWARDED_FOR_PROXIES: '192.0.2.10' });
    expect(clientKey(behind, stamped('192.0.2.10', { 'x-forwarded-for': '203.0.113.9' }))).toBe('client:203.0.113.9');
    // Read right to left: an address the client put first is not believed past the first untrusted hop.
    expect(clientKey(behind, stamped('192.0.2.10', { 'x-forwarded-for': '1.2.3.4, 203.0.113.9' }))).toBe('client:203.0.113.9');
    expect(clientKey(behind, stamped('198.51.100.7', { 'x-forwarded-for': '203.0.113.9' }))).toBe('client:198.51.100.7');
  });

  it('the SSO user when the SSO proxy names one; without a peer stamp, one shared bucket', () => {
    const sso = parseProxyTrust({ LEASEBOARD_AUTH_HEADER: 'x-forwarded-email', LEASEBOARD_TRUSTED_PROXIES: '192.0.2.10' });
    expect(clientKey(sso, stamped('192.0.2.10', { 'x-forwarded-email': 'Alice@Example.org' }))).toBe('user:alice@example.org');
    expect(clientKey(sso, stamped('198.51.100.7', { 'x-forwarded-email': 'alice@example.org' }))).toBe('client:198.51.100.7');
    expect(clientKey(sso, new Headers({ 'x-forwarded-email': 'alice@example.org' }))).toBe('unidentified');
  });

  it('IPv6 clients are grouped by /64: rotating inside it buys no fresh budget', () => {
    expect(addressGroup('2001:db8:1:2:aaaa::1')).toBe('2001:0db8:0001:0002::/64');
    expect(addressGroup('2001:db8:1:2:ffff:ffff:ffff:fffe')).toBe('2001:0db8:0001:0002::/64');
    expect(addressGroup('2001:db8:1:3::1')).not.toBe(addressGroup('2001:db8:1:2::1'));
    expect(addressGroup('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(addressGroup('198.51.100.7')).toBe('198.51.100.7');
  });
});

describe('bounded bodies', () => {
  /** A body that counts how many bytes were pulled from it, and can stall. */
  function source(chunks: number, chunkBytes: number, stallAfter = Infinity) {
    const counted = { pulled: 0, cancelled: false };
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          if (sent >= stallAfter) return new Promise(() => {}); // the sender stops sending
          if (sent === chunks) return controller.close();
          sent++;
          counted.pulled += chunkBytes;
          controller.enqueue(new Uint8Array(chunkBytes).fill(0x61));
        },
        cancel() {
          counted.cancelled = true;
        },
      },
      { highWaterMark: 0 }, // pulled only when read
    );
    return { stream, counted };
  }

  it('a declared length over the limit is refused before a byte is read', async () => {
    const { stream, counted } = source(1_000, 1_024);
    expect(await readBoundedText(stream, String(64 * 1024 * 1024), { maxBytes: 1_024 })).toEqual({
      ok: false,
      refusal: { status: 413, code: 'too_large', message: 'body larger than 1024 bytes' },
    });
    expect(counted.pulled).toBe(0);
  });

  it('an undeclared body is read only up to the limit: nothing further is taken from the stream', async () => {
    const { stream, counted } = source(1_000_000, 1_024);
    const read = await readBoundedText(stream, null, { maxBytes: 4_096 });
    expect(read).toMatchObject({ ok: false, refusal: { status: 413 } });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(counted.pulled).toBeLessThanOrEqual(4_096 + 1_024); // the limit, and the chunk that crossed it
    // Not cancelled: in Next.js that destroys the socket before the 413 can be sent; the server closes it after.
    expect(counted.cancelled).toBe(false);
  });

  it('a body that does not arrive in time gets 408, and is not waited for', async () => {
    const { stream } = source(10, 10, 2);
    const started = Date.now();
    expect(await readBoundedText(stream, '100', { maxBytes: 1_024, deadlineMs: 200 })).toMatchObject({
      ok: false,
      refusal: { status: 408, code: 'body_timeout' },
    });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('reads a body within the limit; refuses bytes that are not UTF-8 and a malformed Content-Length', async () => {
    expect(await readBoundedText(new Blob(['{"a":1}']).stream(), '7', { maxBytes: 16 })).toEqual({ ok: true, value: '{"a":1}' });
    expect(await readBoundedText(new Blob([new Uint8Array([0xff, 0xfe])]).stream(), null, { maxBytes: 16 })).toMatchObject({
      ok: false,
      refusal: { status: 400, message: 'body is not UTF-8' },
    });
    expect(await readBoundedText(null, '1e3', { maxBytes: 16 })).toMatchObject({ ok: false, refusal: { status: 400 } });
  });
});
