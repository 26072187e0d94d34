// A real OpenID provider for tests (oidc-provider, its development login and
// consent pages), on a loopback port, with accounts whose groups a test can
// change; and a browser-less walk through its pages with fetch and a cookie jar.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export const CLIENT_ID = 'leaseboard-test';
export const CLIENT_SECRET = 'leaseboard-test-client-secret-0123456789';

export interface TestProvider {
  issuer: string;
  /** Account → groups; change it to move a user between groups. */
  groups: Map<string, string[]>;
  close(): Promise<void>;
}

export async function startProvider(options: { redirectUri: string; postLogoutUri: string; accounts: Record<string, string[]> }): Promise<TestProvider> {
  let handler: http.RequestListener = (_req, res) => res.end();
  const server = http.createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const groups = new Map(Object.entries(options.accounts));
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: [options.redirectUri],
        post_logout_redirect_uris: [options.postLogoutUri],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
      },
    ],
    claims: { openid: ['sub'], profile: ['preferred_username', 'groups'] },
    findAccount: (_ctx, id) =>
      groups.has(id) ? { accountId: id, claims: () => ({ sub: id, preferred_username: id, groups: groups.get(id) ?? [] }) } : undefined,
    issueRefreshToken: () => true,
    // Explicit lifetimes (the provider warns about its defaults).
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 3600, Grant: 3600, RefreshToken: 86_400 },
    features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
    cookies: { keys: ['leaseboard-test-provider-cookie-key'] },
  });
  handler = provider.callback();
  return {
    issuer,
    groups,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A browser stand-in: follows the provider's redirects, keeps its cookies, submits its login and consent forms. */
export async function signInAtProvider(authorizationUrl: string, login: string, redirectUri: string): Promise<URL> {
  const jar = new Map<string, string>();
  const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  const keep = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      jar.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
  };
  let url = authorizationUrl;
  let init: RequestInit = {};
  for (let step = 0; step < 20; step++) {
    const response = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), cookie: cookie() } });
    keep(response);
    const location = response.headers.get('location');
    if (location !== null) {
      const target = new URL(location, url);
      if (target.href.startsWith(redirectUri)) return target;
      url = target.href;
      init = {};
      continue;
    }
    const page = await response.text();
    if (response.status !== 200) throw new Error(`provider answered ${response.status}: ${page.slice(0, 200)}`);
    const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
    const prompt = /name="prompt" value="([^"]+)"/.exec(page)?.[1];
    if (!action || !prompt) throw new Error(`no form on the provider's page: ${page.slice(0, 200)}`);
    const form = new URLSearchParams(prompt === 'login' ? { prompt, login, password: 'any' } : { prompt });
    url = new URL(action, url).href;
    init = { method: 'POST', body: form.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } };
  }
  throw new Error('the provider did not send the browser back within 20 steps');
}
