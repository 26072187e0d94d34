/**
 * A real OpenID provider for the browser tier (oidc-provider with its
 * development login and consent pages) on a loopback port: the same
 * configuration as lib/auth/oidc/testing/provider.ts, which the e2e layer may
 * not import.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export const E2E_OIDC_CLIENT = { id: 'leaseboard-e2e', secret: 'leaseboard-e2e-client-secret-0123456789' } as const;

export async function startE2eProvider(options: { redirectUri: string; postLogoutUri: string; accounts: Record<string, string[]> }) {
  let handler: http.RequestListener = (_req, res) => res.end();
  const server = http.createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: E2E_OIDC_CLIENT.id,
        client_secret: E2E_OIDC_CLIENT.secret,
        redirect_uris: [options.redirectUri],
        post_logout_redirect_uris: [options.postLogoutUri],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
      },
    ],
    claims: { openid: ['sub'], profile: ['preferred_username', 'groups'] },
    findAccount: (_ctx, id) =>
      id in options.accounts ? { accountId: id, claims: () => ({ sub: id, preferred_username: id, groups: options.accounts[id] ?? [] }) } : undefined,
    issueRefreshToken: () => true,
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 3600, Grant: 3600, RefreshToken: 86_400 },
    features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
    cookies: { keys: ['leaseboard-e2e-provider-cookie-key'] },
  });
  handler = provider.callback();
  return {
    issuer,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
