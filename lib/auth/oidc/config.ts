/**
 * OpenID Connect sign-in's settings, parsed and validated once (lib/config
 * holds their names, defaults and ranges).
 *
 * Guarantees: OIDC is off unless LEASEBOARD_OIDC_ISSUER is set; set, it needs
 * the client id and LEASEBOARD_PUBLIC_URL (the redirect URL is derived from
 * it, so what is registered at the provider is `<public URL>/api/v1/session/oidc/callback`),
 * and a non-empty role mapping. The issuer must be https, or http on a
 * loopback address (a provider on this host, as the tests start). The client
 * secret comes from the environment or a file, never a flag, and is never
 * echoed: every refusal names the variable and the rule.
 */
import { readFileSync } from 'node:fs';
import { SETTINGS, type Settings } from '../../config';
import type { PublicUrl } from '../../api/public-url';
import { parseRoles, type RoleMapping, RoleMappingError, type RoleSelectors } from './roles';

const OIDC_CALLBACK_PATH = '/api/v1/session/oidc/callback';

export interface OidcConfig {
  issuer: URL;
  /** http on loopback: openid-client must be told to allow it. */
  insecureIssuer: boolean;
  clientId: string;
  /** Null: a public client, authenticated by PKCE alone. */
  clientSecret: string | null;
  scopes: string;
  groupsClaim: string;
  roles: RoleMapping;
  /** Operator groups limited to a label selector (`payments=operator[team=payments]`). */
  roleSelectors: RoleSelectors;
  refreshEveryMs: number;
  redirectUrl: string;
  /** Where the provider sends the browser after signing out there. */
  postLogoutUrl: string;
}

type Setting = <K extends keyof Settings>(key: K) => Settings[K];
type Refuse = (variable: string, problem: string) => Error;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

function issuerUrl(raw: string, refuse: Refuse): { issuer: URL; insecure: boolean } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse('LEASEBOARD_OIDC_ISSUER', 'must be an absolute URL');
  }
  if (url.username || url.password || url.search || url.hash) throw refuse('LEASEBOARD_OIDC_ISSUER', 'must have no credentials, query or fragment');
  if (url.protocol === 'https:') return { issuer: url, insecure: false };
  if (url.protocol === 'http:' && LOOPBACK.has(url.hostname)) return { issuer: url, insecure: true };
  throw refuse('LEASEBOARD_OIDC_ISSUER', 'must be https (http only on a loopback address)');
}

function clientSecret(setting: Setting, refuse: Refuse): string | null {
  const inline = setting('oidcClientSecret');
  const file = setting('oidcClientSecretFile');
  if (inline && file) throw refuse('LEASEBOARD_OIDC_CLIENT_SECRET_FILE', 'set either it or LEASEBOARD_OIDC_CLIENT_SECRET, not both');
  if (!file) return inline || null;
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (error) {
    throw refuse('LEASEBOARD_OIDC_CLIENT_SECRET_FILE', `cannot read the file (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (text === '') throw refuse('LEASEBOARD_OIDC_CLIENT_SECRET_FILE', 'the file is empty');
  return text;
}

export function parseOidcConfig(setting: Setting, refuse: Refuse, publicUrl: PublicUrl | null): OidcConfig | null {
  const rawIssuer = setting('oidcIssuer');
  if (!rawIssuer) {
    for (const key of ['oidcClientId', 'oidcRoles', 'oidcClientSecret', 'oidcClientSecretFile'] as const) {
      if (setting(key)) throw refuse(SETTINGS[key].env, 'set without LEASEBOARD_OIDC_ISSUER');
    }
    return null;
  }
  const { issuer, insecure } = issuerUrl(rawIssuer, refuse);
  const clientId = setting('oidcClientId');
  if (!clientId) throw refuse('LEASEBOARD_OIDC_CLIENT_ID', 'required with LEASEBOARD_OIDC_ISSUER');
  if (publicUrl === null)
    throw refuse('LEASEBOARD_PUBLIC_URL', 'required with LEASEBOARD_OIDC_ISSUER (the redirect URL registered at the provider is derived from it)');
  let roles: RoleMapping;
  let roleSelectors: RoleSelectors;
  try {
    ({ roles, selectors: roleSelectors } = parseRoles(setting('oidcRoles') ?? ''));
  } catch (error) {
    if (error instanceof RoleMappingError) throw refuse('LEASEBOARD_OIDC_ROLES', error.message);
    throw error;
  }
  if (roles.size === 0) throw refuse('LEASEBOARD_OIDC_ROLES', 'required with LEASEBOARD_OIDC_ISSUER: at least one group=role (viewer, operator, admin)');
  const scopes = setting('oidcScopes') ?? 'openid';
  return Object.freeze({
    issuer,
    insecureIssuer: insecure,
    clientId,
    clientSecret: clientSecret(setting, refuse),
    scopes: scopes.split(' ').includes('openid') ? scopes : `openid ${scopes}`,
    groupsClaim: setting('oidcGroupsClaim') ?? 'groups',
    roles,
    roleSelectors,
    refreshEveryMs: setting('oidcRefreshEvery'),
    redirectUrl: `${publicUrl.url}${OIDC_CALLBACK_PATH}`,
    postLogoutUrl: `${publicUrl.url}/`,
  });
}
