/**
 * What the global setup hands to the specs (through the environment, which
 * Playwright's workers inherit from the runner after global setup).
 */
export const E2E_BASE_PATH = '/ops/leaseboard';

/** The SSO proxy the server trusts in the suite: only requests from 127.0.0.2 may assert an identity. */
export const E2E_SSO = { header: 'x-forwarded-email', proxyAddress: '127.0.0.2', operator: 'sso-operator@example.org' } as const;

export interface E2eEnv {
  /** The dashboard through the prefix proxy, e.g. http://127.0.0.1:41234/ops/leaseboard (no trailing slash). */
  baseUrl: string;
  /** The dashboard straight from `next start`, same base path. */
  directUrl: string;
  /** The proxy's origin (to probe paths outside the prefix). */
  proxyOrigin: string;
  databaseUrl: string;
  /** The poll interval the server was started with. */
  pollIntervalMs: number;
  /** The local operator token the server was started with. */
  operatorToken: string;
  /** The real Alertmanager the server's alert evaluator delivers to. */
  alertmanagerUrl: string;
}

export function e2eEnv(): E2eEnv {
  const read = (key: string) => {
    const value = process.env[key];
    if (!value) throw new Error(`e2e: ${key} is not set — run the specs through playwright.config.ts (its global setup sets it)`);
    return value;
  };
  return {
    baseUrl: read('E2E_BASE_URL'),
    directUrl: read('E2E_DIRECT_URL'),
    proxyOrigin: read('E2E_PROXY_ORIGIN'),
    databaseUrl: read('E2E_DATABASE_URL'),
    pollIntervalMs: Number(read('E2E_POLL_INTERVAL_MS')),
    operatorToken: read('E2E_OPERATOR_TOKEN'),
    alertmanagerUrl: read('E2E_ALERTMANAGER_URL'),
  };
}
