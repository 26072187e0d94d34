// The dashboard server's front door on a real node:http server, with a stand-in for Next.js that
// renders a page carrying the request's nonce and counts its renders (each render of a history page is
// a heavy read on the real server):
// - history pages (a scheduler's detail, live or `?at=`, alerts, audit) spend the client's heavy-read
//   budget like their API reads: past it, 429 in the error shape with Retry-After and no render, while
//   another client still gets its pages;
// - the overview's shared HTML is keyed by what the page reads: made-up query parameters share one render;
// - only the public URL's host, loopback names, the listening address and the configured extra hosts are
//   answered (a rebound DNS name gets 421), except the orchestrator's health probe;
// - HSTS (a year, no preload) only when the public URL is https.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { enablePeerStamping } from '../http/peer';
import { parseProxyTrust } from '../http/proxies';
import { heavyReadGate } from '../server/http/heavy-gate';
import { frontDoor, type FrontDoorOptions } from './front-door';

const realStamp = enablePeerStamping();
const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

interface Door {
  base: string;
  port: number;
  renders: string[];
  /** The peer the next requests come from (the stand-in for the socket's address). */
  from(peer: string): void;
}

async function door(options: Partial<FrontDoorOptions> = {}): Promise<Door> {
  let peer = '10.0.0.1';
  const renders: string[] = [];
  const answer = frontDoor({
    basePath: '',
    dev: false,
    stamp: () => realStamp(peer),
    hotRead: (req, res) => {
      if (req.url !== '/api/healthz') return false;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
      return true;
    },
    render: (req, res) => {
      renders.push(req.url ?? '/');
      const nonce = /'nonce-([^']+)'/.exec(String(req.headers['content-security-policy']))?.[1] ?? '';
      setTimeout(() => {
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.writeHead(200);
        res.end(`<html><script nonce="${nonce}">page</script></html>`);
      }, 5);
    },
    pageCacheMs: 0,
    publicUrl: null,
    allowedHosts: [],
    listenHost: '127.0.0.1',
    heavyGate: heavyReadGate(parseProxyTrust({}), { points: 40, durationS: 10 }),
    access: null,
    failed: (res) => res.destroy(),
    ...options,
  });
  const server = http.createServer(answer);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { base: `http://127.0.0.1:${port}`, port, renders, from: (next) => (peer = next) };
}

/** A GET with a Host of our choosing (fetch will not let us set one): status, headers, body. */
function get(port: number, path: string, host = `127.0.0.1:${port}`): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, path, headers: { host } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    request.on('error', reject);
    request.end();
  });
}

describe('history pages spend the heavy-read budget', () => {
  it('one client past 40 history pages in 10 s gets 429 with Retry-After and no render; another client still gets its pages', async () => {
    const d = await door();
    d.from('10.0.0.1');
    const statuses: number[] = [];
    const at = encodeURIComponent('2026-12-01T10:00:00Z');
    for (let i = 0; i < 30; i++) statuses.push((await get(d.port, `/schedulers/nightly-export?at=${at}&n=${i}`)).status);
    for (let i = 0; i < 10; i++) statuses.push((await get(d.port, '/alerts')).status);
    for (let i = 0; i < 5; i++) statuses.push((await get(d.port, '/audit')).status);
    const refused = await get(d.port, '/schedulers/nightly-export');
    expect(statuses.slice(0, 40).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(40)).toEqual([429, 429, 429, 429, 429]);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(refused.body)).toMatchObject({ error: { code: 'rate_limited' } });
    expect(d.renders).toHaveLength(40);
    d.from('10.0.0.2');
    expect((await get(d.port, `/schedulers/nightly-export?at=${at}`)).status).toBe(200);
    // Pages that read no history are not limited.
    d.from('10.0.0.1');
    expect((await get(d.port, '/login')).status).toBe(200);
  });
});

describe('the overview cache key', () => {
  it('made-up query parameters share one render; a parameter the page reads gets its own', async () => {
    const d = await door({ pageCacheMs: 60_000 });
    for (let i = 0; i < 20; i++) expect((await get(d.port, `/?utm_source=mail&r=${i}`)).status).toBe(200);
    expect((await get(d.port, '/')).status).toBe(200);
    expect((await get(d.port, '/?page=1&window=1h&order=now')).status, 'the defaults spelled out').toBe(200);
    expect(d.renders).toHaveLength(1);
    expect((await get(d.port, '/?health=stalled&junk=1')).status).toBe(200);
    expect((await get(d.port, '/?junk=2&health=stalled')).status).toBe(200);
    expect(d.renders).toHaveLength(2);
  });
});

describe('allowed hosts', () => {
  it('with no public URL, a rebound name gets 421 in the error shape and nothing is rendered; loopback names are answered', async () => {
    const d = await door();
    for (const path of ['/audit', '/schedulers/nightly-export', '/api/v1/audit', '/']) {
      const answer = await get(d.port, path, 'evil.example');
      expect(answer.status, path).toBe(421);
      expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 'misdirected_host' } });
    }
    expect(d.renders).toHaveLength(0);
    for (const host of ['localhost', `localhost:${d.port}`, `127.0.0.1:${d.port}`, '[::1]:3000', 'LOCALHOST']) {
      expect((await get(d.port, '/audit', host)).status, host).toBe(200);
    }
  });

  it('the public URL’s host and the configured extra hosts are answered, others not; the health probe answers any host', async () => {
    const d = await door({ publicUrl: 'https://ops.example.org/leaseboard', allowedHosts: ['leaseboard.internal'], listenHost: '0.0.0.0' });
    expect((await get(d.port, '/audit', 'ops.example.org')).status).toBe(200);
    expect((await get(d.port, '/audit', 'ops.example.org:443')).status).toBe(200);
    expect((await get(d.port, '/audit', 'leaseboard.internal:3000')).status).toBe(200);
    expect((await get(d.port, '/audit', 'ops.example.org.evil.example')).status).toBe(421);
    expect((await get(d.port, '/audit', '0.0.0.0')).status).toBe(421);
    expect((await get(d.port, '/api/healthz', '10.1.2.3:3000')).status).toBe(200);
  });
});

describe('HSTS', () => {
  it('an https public URL: Strict-Transport-Security for a year, no preload, on pages and API answers', async () => {
    const d = await door({ publicUrl: 'https://ops.example.org' });
    for (const path of ['/', '/api/healthz']) {
      const answer = await get(d.port, path, 'ops.example.org');
      expect(answer.headers['strict-transport-security'], path).toBe('max-age=31536000');
    }
  });

  it('an http public URL, or none: no Strict-Transport-Security', async () => {
    for (const publicUrl of ['http://ops.example.org', null]) {
      const d = await door({ publicUrl });
      const answer = await get(d.port, '/', publicUrl ? 'ops.example.org' : 'localhost');
      expect(answer.status).toBe(200);
      expect(answer.headers['strict-transport-security']).toBeUndefined();
    }
  });
});
