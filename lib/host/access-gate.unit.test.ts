// The access gate's glue over a real node:http server: the gate sees the path
// without the base path; a refusal is sent instead of the route; a refreshed
// Cookie header is what the route reads, and the refreshed Set-Cookie rides
// on the route's own answer.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type AccessCheck, gateThen } from './access-gate';

let server: http.Server | null = null;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function serve(access: AccessCheck): Promise<{ url: string; routed: { cookie: string | undefined }[] }> {
  const routed: { cookie: string | undefined }[] = [];
  server = http.createServer((req, res) =>
    gateThen(
      access,
      '/ops',
      req,
      res,
      () => {
        routed.push({ cookie: req.headers.cookie });
        res.setHeader('set-cookie', 'route=1');
        res.end('routed');
      },
      () => {
        res.statusCode = 500;
        res.end();
      },
    ),
  );
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, routed };
}

describe('the access gate on node:http', () => {
  it('sends the refusal instead of routing, for the path without the base path', async () => {
    const seen: string[] = [];
    const { url, routed } = await serve(async ({ pathname, search }) => {
      seen.push(`${pathname}${search}`);
      return { cookieHeader: null, setCookies: [], refusal: Response.json({ error: { code: 'unauthorized', message: 'sign in first' } }, { status: 401 }) };
    });
    const answer = await fetch(`${url}/ops/api/v1/schedulers?limit=1`);
    expect(answer.status).toBe(401);
    expect(await answer.json()).toEqual({ error: { code: 'unauthorized', message: 'sign in first' } });
    expect(seen).toEqual(['/api/v1/schedulers?limit=1']);
    expect(routed).toEqual([]);
  });

  it('routes with the refreshed Cookie header and adds its Set-Cookie to the route’s answer', async () => {
    const { url, routed } = await serve(async () => ({
      cookieHeader: 'other=1; leaseboard_oidc=fresh',
      setCookies: ['leaseboard_oidc=fresh; Path=/'],
      refusal: null,
    }));
    const answer = await fetch(`${url}/ops/`, { headers: { cookie: 'other=1; leaseboard_oidc=stale' } });
    expect(await answer.text()).toBe('routed');
    expect(routed).toEqual([{ cookie: 'other=1; leaseboard_oidc=fresh' }]);
    expect(answer.headers.getSetCookie()).toEqual(['leaseboard_oidc=fresh; Path=/', 'route=1']);
  });

  it('answers 500 when the gate fails, and never routes', async () => {
    const { url, routed } = await serve(async () => {
      throw new Error('store down');
    });
    expect((await fetch(`${url}/ops/`)).status).toBe(500);
    expect(routed).toEqual([]);
  });
});
