// The overview's HTML micro-cache on a real node:http server with a stand-in
// renderer that writes a page carrying the request's nonce (as Next.js does):
// given a render, when the next visitors come within maxAge, then they get the
// same page with THEIR nonce (body and Link header), one render for all,
// gzipped (the raw bytes checked) for the clients that accept it;
// client-side navigations, errors and expired entries are rendered afresh
// (an expired entry answers the others only while its successor renders).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageCache } from './page-cache';

describe('overview page cache', () => {
  let clockMs = 0;
  let renders = 0;
  let status = 200;
  let renderMs = 20;
  /** How far the cache's clock moves during a render (a slow render). */
  let renderClockMs = 0;
  const cache = pageCache({ paths: ['/ops', '/ops/'], maxAgeMs: 1_000, monotonicMs: () => clockMs });
  /** The nonces of the requests that reached the cache, in order (each is queued or rendering once listed). */
  const arrived: string[] = [];
  const server = http.createServer((req, res) => {
    const nonce = String(req.headers['x-test-nonce']);
    arrived.push(nonce);
    const render = () => {
      renders += 1;
      setTimeout(() => {
        clockMs += renderClockMs;
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.setHeader('link', `</a.css>; rel=preload; nonce="${nonce}"`);
        res.writeHead(status);
        res.write(`<html><script nonce="${nonce}">render ${renders}</script>`);
        res.end(`<p>{"nonce":"${nonce}"}</p></html>`);
      }, renderMs);
    };
    if (!cache.serve(req, res, nonce, render)) render();
  });
  let base = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const get = async (path: string, nonce: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${base}${path}`, { headers: { 'x-test-nonce': nonce, 'accept-encoding': 'identity', ...headers } });
    return { status: response.status, link: response.headers.get('link'), body: await response.text() };
  };

  it('one render serves every visitor within maxAge, each with its own nonce', async () => {
    renders = 0;
    const [a, b, c] = await Promise.all([get('/ops', 'AAAA'), get('/ops', 'BBBB'), get('/ops', 'CCCC')]);
    expect(renders).toBe(1); // concurrent misses shared one render
    for (const [page, nonce] of [
      [a, 'AAAA'],
      [b, 'BBBB'],
      [c, 'CCCC'],
    ] as const) {
      expect(page.body).toBe(`<html><script nonce="${nonce}">render 1</script><p>{"nonce":"${nonce}"}</p></html>`);
      expect(page.link).toBe(`</a.css>; rel=preload; nonce="${nonce}"`);
    }
    clockMs += 999;
    expect((await get('/ops', 'DDDD')).body).toContain('nonce="DDDD">render 1');
    clockMs += 2;
    expect((await get('/ops', 'EEEE')).body).toContain('nonce="EEEE">render 2'); // expired: rendered again
  });

  it("keys a page by the viewer's time cookie too: a visitor in another zone never gets a page rendered for this one", async () => {
    const path = '/ops/?zones';
    renders = 0;
    await get(path, 'Z1', { cookie: 'leaseboard-time=Asia%2FTokyo' });
    expect((await get(path, 'Z2', { cookie: 'a=1; leaseboard-time=Asia%2FTokyo' })).body).toContain('render 1');
    expect((await get(path, 'Z3', { cookie: 'leaseboard-time=Europe%2FBerlin' })).body).toContain('render 2');
    expect((await get(path, 'Z4')).body).toContain('render 3'); // no cookie: UTC
    expect((await get(path, 'Z5', { cookie: 'leaseboard-time=Mars%2FOlympus' })).body).toContain('render 3'); // not understood: UTC too
    expect(renders).toBe(3);
  });

  it('while a newer render is in flight, the others get the previous one (their own nonce), up to staleMs past its max age', async () => {
    const path = '/ops/?health=failing';
    renders = 0;
    await get(path, 'J0'); // render 1
    clockMs += 1_500; // expired, within the default 2 s past its max age
    const during = await Promise.all([get(path, 'K1'), get(path, 'K2'), get(path, 'K3')]);
    expect(renders).toBe(2);
    const html = (nonce: string, render: number) => `<html><script nonce="${nonce}">render ${render}</script><p>{"nonce":"${nonce}"}</p></html>`;
    // Whichever request came first rendered and got render 2; the others got render 1 meanwhile, each with its own nonce.
    const got = during.map((page, i) => [html(`K${i + 1}`, 1), html(`K${i + 1}`, 2)].indexOf(page.body) + 1);
    expect(got.sort()).toEqual([1, 1, 2]);
    clockMs += 3_001; // more than 2 s past its max age: nobody gets it, all wait for the next render
    const late = await Promise.all([get(path, 'L1'), get(path, 'L2')]);
    expect(renders).toBe(3);
    expect(late.map((page) => page.body)).toEqual([html('L1', 3), html('L2', 3)]);
  });

  it('ages an entry from the end of its render: a render slower than maxAge is still shared', async () => {
    const path = '/ops/?health=overdue';
    renders = 0;
    renderClockMs = 1_500;
    try {
      await get(path, 'N0');
      expect((await get(path, 'N1')).body).toContain('nonce="N1">render 1');
      clockMs += 1_001;
      expect((await get(path, 'N2')).body).toContain('nonce="N2">render 2');
      expect(renders).toBe(2);
    } finally {
      renderClockMs = 0;
    }
  });

  it('when the rendering visitor leaves mid-render, the waiting visitors share ONE render again', async () => {
    const path = '/ops/?health=silent';
    renders = 0;
    renderMs = 500; // long enough for the others to arrive and wait on it, even on a loaded machine
    const leaving = http.get(`${base}${path}`, { headers: { 'x-test-nonce': 'M0', 'accept-encoding': 'identity' } });
    leaving.on('error', () => {});
    while (renders === 0) await new Promise((resolve) => setTimeout(resolve, 5)); // its render has started
    renderMs = 20;
    const waiting = Promise.all([get(path, 'M1'), get(path, 'M2'), get(path, 'M3')]);
    // The three have reached the cache (and wait on the render) before the renderer's visitor leaves.
    while (!['M1', 'M2', 'M3'].every((nonce) => arrived.includes(nonce))) await new Promise((resolve) => setTimeout(resolve, 5));
    leaving.destroy();
    const pages = await waiting;
    expect(renders).toBe(2);
    expect(pages.map((page) => page.body)).toEqual(
      ['M1', 'M2', 'M3'].map((nonce) => `<html><script nonce="${nonce}">render 2</script><p>{"nonce":"${nonce}"}</p></html>`),
    );
  });

  /** The answer's raw bytes and headers, not decoded (fetch would gunzip). */
  const raw = (path: string, nonce: string, acceptEncoding: string) =>
    new Promise<{ headers: http.IncomingHttpHeaders; bytes: Buffer }>((resolve, reject) => {
      http
        .get(`${base}${path}`, { headers: { 'x-test-nonce': nonce, 'accept-encoding': acceptEncoding } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ headers: res.headers, bytes: Buffer.concat(chunks) }));
        })
        .on('error', reject);
    });

  it('gzips a cached answer for clients that accept it: exactly the page with this response’s nonce; Vary: Accept-Encoding', async () => {
    renders = 0;
    await get('/ops/?health=stalled', 'FFFF');
    const page = (nonce: string) => `<html><script nonce="${nonce}">render 1</script><p>{"nonce":"${nonce}"}</p></html>`;
    for (const [nonce, acceptEncoding] of [
      ['GGGG', 'gzip'],
      ['HHHH', 'gzip, deflate, br'],
    ] as const) {
      const { headers, bytes } = await raw('/ops/?health=stalled', nonce, acceptEncoding);
      expect(headers['content-encoding']).toBe('gzip');
      expect(headers.vary).toBe('Accept-Encoding');
      expect(Number(headers['content-length'])).toBe(bytes.length);
      expect(gunzipSync(bytes).toString('utf8')).toBe(page(nonce));
      expect(headers.link).toBe(`</a.css>; rel=preload; nonce="${nonce}"`);
    }
    const plain = await raw('/ops/?health=stalled', 'IIII', 'gzip;q=0');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    expect(plain.bytes.toString('utf8')).toBe(page('IIII'));
    expect(renders).toBe(1);
  });

  it('never caches navigations, other paths, errors, or other methods', async () => {
    renders = 0;
    await get('/ops', 'A1', { rsc: '1' });
    await get('/ops', 'A2', { rsc: '1' });
    await get('/ops/?_rsc=x1', 'A3');
    await get('/ops/schedulers/x', 'A4');
    await get('/ops/schedulers/x', 'A5');
    expect(renders).toBe(5);
    clockMs += 10_000;
    status = 500;
    await get('/ops', 'B1');
    await get('/ops', 'B2');
    expect(renders).toBe(7);
    status = 200;
  });
});
